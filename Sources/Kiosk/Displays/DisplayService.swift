import Stage

/// Starts the configured display backend for the kiosk, and keeps trying while the
/// DRM device is missing or held by another display server (a clear message each
/// time, never a crash loop). The app's entry point: `RunCommand` creates one.
final class DisplayService {
    enum Kind: String, Sendable {
        case drm, headless, window
    }

    let backend: any DisplayBackend
    /// The libseat session when the kiosk runs unprivileged (or is asked to use one).
    private(set) var seat: SeatSession?
    private let loop: EventLoop
    private let log: (String) -> Void
    private let retryInterval: Double
    private var retryTimer: EventLoop.TimerID?
    private(set) var started = false

    /// `useSeat`: open the card through libseat (logind, seatd, or seatd built in for
    /// root) and follow VT switches; otherwise open it directly, which needs root.
    init(kind: Kind, configuration: DisplayConfiguration, headlessSizes: [DisplayRole: (width: Int, height: Int)],
         loop: EventLoop, useSeat: Bool = false, retryInterval: Double = 2, windowScale: Double? = nil,
         log: @escaping (String) -> Void) throws(DisplaysError) {
        self.loop = loop
        self.log = log
        self.retryInterval = retryInterval
        switch kind {
        case .drm where useSeat:
            let seat = try SeatSession()
            try seat.waitUntilEnabled(timeout: 10)
            log("displays: seat \(seat.name) through libseat")
            let drm = DRMBackend(configuration: configuration, loop: loop, opener: { path, atomic in
                let fd = try seat.openDevice(path)
                return try DRMCard(path: path, fd: fd, allowAtomic: atomic, needsMaster: false) { [weak seat] fd in
                    seat?.closeDevice(fd: fd)
                }
            }, log: log)
            seat.onDisable.append { [weak drm] in
                log("displays: seat disabled (VT switch); releasing the displays")
                drm?.suspend()
            }
            seat.onEnable.append { [weak drm] in
                log("displays: seat enabled again; modesetting")
                drm?.resume()
            }
            loop.addReader(fd: seat.fd, name: "seat") { [weak seat] in seat?.dispatch() }
            self.seat = seat
            backend = drm
        case .drm:
            backend = DRMBackend(configuration: configuration, loop: loop, log: log)
        case .headless:
            backend = HeadlessBackend(sizes: headlessSizes, connectors: [.inner: configuration.innerConnector,
                                                                         .outer: configuration.outerConnector], loop: loop)
        case .window:
            // The displays' sizes are rig.toml's (as headless draws them), in windows.
            backend = WindowBackend(sizes: headlessSizes, connectors: [.inner: configuration.innerConnector,
                                                                       .outer: configuration.outerConnector],
                                    forcedScale: windowScale, loop: loop, log: log)
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
