import Foundation
import Stage

/// `rig run --test-pattern`: the displays alone, without the app: colour bars per head
/// and a moving bar (`TestPatternScene`). The virtual-rig tests of the display backend
/// use it, so they compare exact, deterministic pictures and are not disturbed by what
/// the app chooses to show; it is also a first check of a new monitor.
/// `--paused` holds the bar still; SIGUSR1 toggles the outer display's enabled.

final class TestPatternKiosk {
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
        // SIGUSR1 toggles the outer display's "enabled" (the operator's switch): the
        // test-pattern mode has no control socket.
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
        statusFile?.keepWriting(service.backend, on: loop)
        if let snapshotDir {
            try DisplaySnapshot.write(service.backend, loop: loop, to: snapshotDir, settle: 0)
        } else {
            loop.run()
        }
        service.shutdown()
        writeStatus(state: "stopped")
        if let exitSignal { Log.stderr("rig: stopped by signal \(exitSignal)") }
        return 0
    }

    private func writeStatus(state: String) {
        statusFile?.write(service.backend, state: state)
    }
}
