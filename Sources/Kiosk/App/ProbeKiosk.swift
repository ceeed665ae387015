import Foundation
import Stage

/// A headless kiosk for the benchmarks' probes, as `rig run --backend headless` runs one
/// (its event loop, frame pacing and flips on the vblank grid): `text` as its only
/// script in a folder of its own, the probe's rig.toml settings, started and run until
/// the outer display has flipped and the script is laid out to its end. Shut down and
/// its folder removed when it goes.
final class ProbeKiosk {
    let app: KioskApp
    let headless: HeadlessBackend
    private let root: URL

    /// `settings` are rig.toml overrides ("prompter.speed=90"); `ready` holds too before
    /// the kiosk is handed over (the loop runs meanwhile), within 30 s.
    init(name: String, text: String, settings: [String], inner: PixelSizeArgument, outer: PixelSizeArgument,
         ready: (KioskApp) -> Bool = { _ in true }) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("rig-\(name)-\(getpid())")
        let scripts = root.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: scripts.appendingPathComponent("Probe.txt"))
        let loaded = ConfigLoader.load(text: "", name: name, overrides: [
            "state.dir=\"\(root.path)\"", "control.socket=\"\(root.path)/control.sock\"", "camera.enabled=false",
        ] + settings)
        guard loaded.errors.isEmpty else {
            try? FileManager.default.removeItem(at: root)
            throw ProbeError.config(loaded.errors.map(\.description))
        }
        do {
            app = try KioskApp(config: loaded.config, configProblems: [], backend: .headless,
                               headlessSizes: HeadlessSizes(inner: inner, outer: outer), devices: [])
        } catch {
            try? FileManager.default.removeItem(at: root)
            throw error
        }
        guard let headless = app.displaysBackend as? HeadlessBackend else {
            app.shutdown()
            try? FileManager.default.removeItem(at: root)
            throw ProbeError.notHeadless
        }
        self.headless = headless
        app.start()
        let deadline = app.loop.clock() + 30
        while app.loop.clock() < deadline, app.stage.renderer.readingText?.layout?.isComplete != true
            || app.displaysBackend.status(of: .outer).flips == 0 || !ready(app) {
            app.loop.runOnce(timeout: 0.02)
        }
        guard app.stage.controller.script != nil else { throw ProbeError.noScript }
    }

    deinit {
        headless.onPresented = nil
        app.shutdown()
        try? FileManager.default.removeItem(at: root)
    }

    /// Plays the script from now, as the operator's Play does; the loop's time it started.
    func play() -> Double {
        let start = app.loop.clock()
        app.stage.controller.play(at: start)
        app.stage.stateChanged()
        return start
    }

    var missedVblanks: Int { Int(app.displaysBackend.status(of: .outer).missedVblanks) }

    /// Runs the loop until `done` or `seconds` pass.
    func run(for seconds: Double, until done: () -> Bool) {
        let deadline = app.loop.clock() + seconds
        while !done() && app.loop.clock() < deadline { app.loop.runOnce(timeout: 0.02) }
    }

    enum ProbeError: Error, CustomStringConvertible {
        case config([String])
        case notHeadless
        case noScript
        case tooFewFrames(Int)

        var description: String {
            switch self {
            case let .config(errors): "the probe's settings were refused: \(errors.joined(separator: "; "))"
            case .notHeadless: "the kiosk did not start with the headless backend"
            case .noScript: "the kiosk opened no script"
            case let .tooFewFrames(count): "only \(count) outer frames were shown before the deadline"
            }
        }
    }
}
