import Foundation

/// `rig run`: the kiosk. For now it drives the displays with a test pattern (the app's
/// scenes replace `TestPatternScene`); it already does the real work of the display
/// side: modeset, paced flips, hotplug, status, and a clean exit on SIGTERM/SIGINT.
enum RunCommand: Command {
    static let name = "run"
    static let summary = "Run the kiosk on the displays named in rig.toml"
    static let help = """
        Usage: rig run [--backend drm|headless] [--status-file PATH] [--paused]
                       [--snapshot-dir DIR] [--config PATH] [--set KEY=VALUE ...]

        Options:
          --backend KIND       drm (default): the connectors in rig.toml; headless: memory
          --status-file PATH   keep the displays' status there as JSON (atomic rewrites)
          --paused             hold the picture still (nothing is flipped while paused)
          --seat               open the displays through libseat even as root (always
                               when not root); follows VT switches
          --snapshot-dir DIR   headless: write inner.ppm and outer.ppm after the first
                               frame and exit
          --inner-size WxH     headless size of the inner display (default: rig.toml)
          --outer-size WxH     headless size of the outer display (default: rig.toml)
        \(ConfigOptions.help)
        """

    static func run(_ arguments: inout Arguments) throws(CLIError) -> Int32 {
        let kindName = try arguments.option("--backend") ?? "drm"
        guard let kind = DisplayService.Kind(rawValue: kindName) else {
            throw .usage("--backend must be drm or headless, not '\(kindName)'")
        }
        let statusPath = try arguments.option("--status-file")
        let paused = arguments.flag("--paused")
        let seat = arguments.flag("--seat") || geteuid() != 0
        let snapshotDir = try arguments.option("--snapshot-dir")
        let innerSize = try arguments.option("--inner-size")
        let outerSize = try arguments.option("--outer-size")
        let options = try ConfigOptions(&arguments)
        try arguments.finish()
        let loaded = options.load()
        for problem in loaded.problems { Log.stderr(problem.description) }
        guard loaded.errors.isEmpty else { return 2 }
        let displays = loaded.config.displays
        let fallback = (width: displays.headlessWidth, height: displays.headlessHeight)
        let sizes: [DisplayRole: (width: Int, height: Int)] = [
            .inner: try innerSize.map(parseSize) ?? fallback,
            .outer: try outerSize.map(parseSize) ?? fallback,
        ]
        do {
            return try Kiosk(kind: kind, configuration: DisplayConfiguration(displays), sizes: sizes,
                             paused: paused, seat: seat, statusPath: statusPath, snapshotDir: snapshotDir,
                             outerEnabled: displays.outer.enabled).run()
        } catch {
            throw .failed("\(error)")
        }
    }

    private static func parseSize(_ text: String) throws(CLIError) -> (width: Int, height: Int) {
        let parts = text.split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else {
            throw .usage("size '\(text)' must be WIDTHxHEIGHT")
        }
        return (w, h)
    }
}

/// The running kiosk behind `rig run`: event loop, signals, displays, status file.
private final class Kiosk {
    let loop: EventLoop
    let service: DisplayService
    let scene: TestPatternScene
    let statusFile: DisplayStatusFile?
    let snapshotDir: String?
    let outerEnabled: Bool

    init(kind: DisplayService.Kind, configuration: DisplayConfiguration,
         sizes: [DisplayRole: (width: Int, height: Int)], paused: Bool, seat: Bool, statusPath: String?,
         snapshotDir: String?, outerEnabled: Bool) throws {
        loop = try EventLoop()
        service = try DisplayService(kind: kind, configuration: configuration, headlessSizes: sizes, loop: loop,
                                     useSeat: seat && kind == .drm) {
            Log.stderr("rig: \($0)")
        }
        scene = TestPatternScene(paused: paused)
        statusFile = statusPath.map(DisplayStatusFile.init)
        self.snapshotDir = snapshotDir
        self.outerEnabled = outerEnabled
    }

    func run() throws -> Int32 {
        // SIGUSR1 toggles the outer display's "enabled" (the operator's switch) until
        // the control socket's `outer on|off` is wired to the displays.
        let signals = try SignalWatcher(signals: [SIGTERM, SIGINT, SIGUSR1])
        var exitSignal: Int32?
        loop.addReader(fd: signals.fd, name: "signals") { [loop, service] in
            for signal in signals.drain() {
                if signal == SIGUSR1 {
                    let backend = service.backend
                    backend.setEnabled(!backend.status(of: .outer).enabled, for: .outer)
                } else {
                    exitSignal = signal
                    loop.stop()
                }
            }
        }
        scene.backend = service.backend
        scene.onStatusChange = { [weak self] _, _ in self?.writeStatus(state: "running") }
        try service.start(delegate: scene)
        service.backend.setEnabled(outerEnabled, for: .outer)
        writeStatus(state: "running")
        tickStatus()
        if let snapshotDir {
            runUntilBothShown()
            try writeSnapshots(to: snapshotDir)
        } else {
            loop.run()
        }
        service.shutdown()
        writeStatus(state: "stopped")
        if let exitSignal { Log.stderr("rig: stopped by signal \(exitSignal)") }
        return 0
    }

    private func tickStatus() {
        loop.addTimer(at: loop.clock() + 0.25) { [weak self] in
            self?.writeStatus(state: "running")
            self?.tickStatus()
        }
    }

    private func writeStatus(state: String) {
        let backend = service.backend
        var statuses: [DisplayRole: DisplayStatus] = [:]
        for role in DisplayRole.allCases { statuses[role] = backend.status(of: role) }
        var extra = ["state": state, "pid": "\(getpid())"]
        if let drm = backend as? DRMBackend { extra["kms"] = drm.pathName }
        statusFile?.write(statuses, extra: extra)
    }

    private func runUntilBothShown() {
        let deadline = loop.clock() + 5
        while loop.clock() < deadline,
              DisplayRole.allCases.contains(where: { service.backend.status(of: $0).flips == 0 }) {
            loop.runOnce(timeout: 0.05)
        }
    }

    private func writeSnapshots(to dir: String) throws {
        guard let headless = service.backend as? HeadlessBackend else {
            throw CLIError.usage("--snapshot-dir needs --backend headless")
        }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for role in DisplayRole.allCases {
            guard let screen = headless.screen(role) else { continue }
            let path = dir + "/\(role).ppm"
            try Data(screen.ppm()).write(to: URL(fileURLWithPath: path), options: .atomic)
            Log.stdout(path)
        }
    }
}
