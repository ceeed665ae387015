/// Starts the configured display backend for the kiosk, and keeps trying while the
/// DRM device is missing or held by another display server (a clear message each
/// time, never a crash loop). The app's entry point: `RunCommand` creates one.
final class DisplayService {
    enum Kind: String, Sendable {
        case drm, headless
    }

    let backend: any DisplayBackend
    private let loop: EventLoop
    private let log: (String) -> Void
    private let retryInterval: Double
    private var retryTimer: EventLoop.TimerID?
    private(set) var started = false

    init(kind: Kind, configuration: DisplayConfiguration, headlessSizes: [DisplayRole: (width: Int, height: Int)],
         loop: EventLoop, retryInterval: Double = 2, log: @escaping (String) -> Void) {
        self.loop = loop
        self.log = log
        self.retryInterval = retryInterval
        switch kind {
        case .drm: backend = DRMBackend(configuration: configuration, loop: loop, log: log)
        case .headless: backend = HeadlessBackend(sizes: headlessSizes, loop: loop)
        }
    }

    /// Starts now, or schedules retries when the device is not ready. Throws only for
    /// configuration mistakes no retry can fix.
    func start(delegate: any DisplayBackendDelegate) throws(DisplaysError) {
        backend.delegate = delegate
        try attempt()
    }

    func shutdown() {
        if let retryTimer { loop.cancel(retryTimer) }
        if started { backend.shutdown() }
    }

    private func attempt() throws(DisplaysError) {
        do {
            try backend.start()
            started = true
        } catch let error as DisplaysError {
            switch error {
            case .masterHeld, .noDevice, .openFailed:
                log("displays: \(error) (retrying every \(Int(retryInterval)) s)")
                retryTimer = loop.addTimer(at: loop.clock() + retryInterval) { [weak self] in
                    self?.retryTimer = nil
                    try? self?.attempt()
                }
            default:
                throw error
            }
        } catch {
            throw .kernel(call: "starting displays", reason: "\(error)")
        }
    }
}

extension DisplayConfiguration {
    /// From rig.toml's `[displays]` table.
    init(_ displays: RigConfig.Displays) {
        self.init(innerConnector: displays.inner.connector, outerConnector: displays.outer.connector,
                  innerMode: displays.inner.mode, outerMode: displays.outer.mode,
                  forceLegacy: displays.legacy, devicePath: nil)
    }
}
