import CDRM
import Glibc
import Stage

/// Drives the inner and outer displays through DRM/KMS: one modeset per head, then
/// page flips paced by each head's own flip events; hotplug turns a head's
/// availability off and on without disturbing the other.
final class DRMBackend: DisplayBackend {
    weak var delegate: (any DisplayBackendDelegate)?

    let configuration: DisplayConfiguration
    let loop: EventLoop
    let log: (String) -> Void
    private(set) var card: DRMCard?
    private(set) var kms: (any KMSPath)?
    private var hotplug: UdevMonitor?
    private var sources: [EventLoop.SourceID] = []
    private(set) var heads: [DisplayRole: DRMHead] = [:]
    private var loggedWaiting = false
    /// When the hotplug event being handled arrived, to log how fast a head came back.
    private var hotplugAt: Double?
    /// False while the seat has taken DRM master away (VT switch).
    private(set) var active = true

    typealias CardOpener = (_ path: String, _ allowAtomic: Bool) throws -> DRMCard
    private let openCardAt: CardOpener

    /// `opener` lets a seat (libseat) open the card; by default it is opened directly,
    /// which needs root. The backend takes the card that has the configured connectors.
    init(configuration: DisplayConfiguration, loop: EventLoop, opener: CardOpener? = nil,
         log: @escaping (String) -> Void) {
        self.configuration = configuration
        self.loop = loop
        self.log = log
        openCardAt = opener ?? { path, atomic in try DRMCard(path: path, allowAtomic: atomic) }
        for role in DisplayRole.allCases {
            heads[role] = DRMHead(role: role, connectorName: configuration.connector(for: role),
                                  modeRequest: configuration.mode(for: role))
        }
        for head in heads.values { head.frames = FrameScheduler(role: head.role, loop: loop, owner: self, log: log) }
    }

    var pathName: String { kms?.name ?? "none" }
    var statusFacts: [String: String] { ["kms": pathName] }

    // MARK: DisplayBackend

    func start() throws {
        if configuration.innerConnector == configuration.outerConnector
            && configuration.innerConnector != DisplayConfiguration.automatic {
            throw DisplaysError.sameConnector(configuration.innerConnector)
        }
        let card = try self.card ?? openCard()
        self.card = card
        kms = card.atomic ? AtomicKMS(card: card) : LegacyKMS(card: card)
        for problem in try ConnectorAssignment.problems(configuration, card: card) {
            log("displays: \(problem)")
            delegate?.displayProblem(problem)
        }
        log("displays: \(card.path), \(kms?.name ?? "") modesetting"
            + (card.monotonicTimestamps ? "" : ", no monotonic flip timestamps"))
        sources.append(loop.addReader(fd: card.fd, name: "drm") { [weak self] in self?.handleDRMEvents() })
        let monitor: UdevMonitor
        do {
            // The kernel's own uevents rather than udevd's re-broadcast: nothing from
            // udev's database is needed to re-probe a card that is already open, it works
            // with no udevd, and udevd's rule processing adds most of a second under load
            // (0.66 s measured in the virtual rig), which would eat the one second a
            // replugged display has to come back in.
            monitor = try UdevMonitor(subsystem: "drm", source: .kernel)
        } catch {
            throw DisplaysError.kernel(call: "udev monitor", reason: error.description)
        }
        hotplug = monitor
        sources.append(loop.addReader(fd: monitor.fd, name: "drm-hotplug") { [weak self] in
            guard let self, monitor.drain(matching: Self.mayChangeConnectors) else { return }
            self.hotplugAt = self.loop.clock()
            self.rescan()
            self.hotplugAt = nil
        })
        rescan()
    }

    /// A uevent that says a card's connectors may have changed: HOTPLUG=1 (a hot-plug
    /// detect), or any other change uevent of a card (a synthetic `echo change >
    /// .../uevent`, which is how drivers with no HPD for a forced connector status,
    /// like virtio-gpu on 6.1, can be told to look again).
    private static func mayChangeConnectors(_ event: UdevMonitor.Event) -> Bool {
        event.property("HOTPLUG") == "1" || (event.property("ACTION") == "change" && event.property("DEVTYPE") == "drm_minor")
    }

    func requestFrame(_ role: DisplayRole) { heads[role]?.frames.requestFrame() }
    func requestFrameNow(_ role: DisplayRole) { heads[role]?.frames.requestFrameNow() }
    func prepareFrame(_ role: DisplayRole, for time: Double) { heads[role]?.frames.prepareFrame(for: time) }

    func setEnabled(_ enabled: Bool, for role: DisplayRole) {
        guard let head = heads[role], head.status.enabled != enabled else { return }
        head.status.enabled = enabled
        notify(head)
        head.frames.enabledChanged()
    }

    func status(of role: DisplayRole) -> DisplayStatus {
        heads[role]?.status ?? DisplayStatus(connector: "")
    }

    func shutdown() {
        for id in sources { loop.remove(id) }
        sources = []
        guard let card, let kms else { return }
        waitForPendingFlips(card: card, timeout: 0.2)
        for head in heads.values { head.frames.halt() }
        for head in heads.values where head.crtcID != nil {
            if let saved = head.saved, let connector = head.connectorID, head.status.connected {
                saved.restore(card: card, connector: connector)
            } else {
                kms.disable(head)
            }
            head.buffers = []
            head.status.available = false
        }
        log("displays: released")
    }

    /// The seat took DRM master away (VT switch): stop touching the device.
    func suspend() {
        active = false
        for head in heads.values {
            head.frames.halt()
            head.disableWhenFlipped = false
            if head.status.available {
                head.status.available = false
                notify(head)
            }
        }
    }

    /// Master is back: modeset every connected head again with current content.
    func resume() {
        active = true
        rescan()
    }

    // MARK: Device and connectors

    private func openCard() throws -> DRMCard {
        let paths = DRMCard.devicePaths()
        if paths.isEmpty { throw DisplaysError.noDevice(searched: "/dev/dri") }
        if let path = configuration.devicePath {
            return try openCardAt(path, !configuration.forceLegacy)
        }
        var firstError: (any Error)?
        for path in paths {
            do {
                let card = try openCardAt(path, !configuration.forceLegacy)
                let names = try card.connectors().map(\.name)
                let wanted = [configuration.innerConnector, configuration.outerConnector]
                if wanted.contains(where: { names.contains($0) || $0 == DisplayConfiguration.automatic }) {
                    return card
                }
                firstError = firstError ?? DisplaysError.unknownConnector(
                    role: .inner, name: configuration.innerConnector, existing: names)
            } catch {
                firstError = firstError ?? error
            }
        }
        throw firstError ?? DisplaysError.noDevice(searched: paths.joined(separator: ", "))
    }

    /// Re-reads every connector and brings heads up or down to match.
    private func rescan() {
        guard active, let card else { return }
        // An atomic modeset is refused while a flip is queued on the CRTC; hotplug is
        // rare, so waiting out the queued flips (a frame at most) keeps it simple.
        waitForPendingFlips(card: card, timeout: 0.1)
        let connectors: [DRMConnector]
        do { connectors = try card.connectors() } catch {
            log("displays: \(error)")
            return
        }
        ConnectorAssignment.resolveAutomatic(heads, connectors: connectors)
        for role in DisplayRole.allCases {
            guard let head = heads[role] else { continue }
            let connector = connectors.first { $0.name == head.connectorName }
            let connected = connector?.connected == true && connector?.modes.isEmpty == false
            head.status.connected = connected
            if let connector, connected {
                let wanted = ConnectorAssignment.mode(for: head, on: connector, log: log)
                if head.status.available, let wanted, wanted.videoMode == head.mode?.videoMode { continue }
                if head.status.available { takeDown(head, reason: "mode changed") }
                bringUp(head, connector: connector, mode: wanted, connectors: connectors)
            } else if head.status.available || head.crtcID != nil {
                takeDown(head, reason: "disconnected")
            }
        }
        let none = heads.values.allSatisfy { !$0.status.connected }
        if none && !loggedWaiting {
            log("displays: neither \(configuration.innerConnector) nor \(configuration.outerConnector) is connected; waiting")
        }
        loggedWaiting = none
    }

    // MARK: Bringing heads up and down

    private func bringUp(_ head: DRMHead, connector: DRMConnector, mode: KernelMode?,
                         connectors: [DRMConnector]) {
        guard let card, let kms, let mode else { return }
        do {
            let (crtc, index) = try ConnectorAssignment.crtc(for: head, on: connector, card: card, heads: heads)
            if head.saved == nil || head.saved?.crtcID != crtc { head.saved = SavedCrtcState(card: card, crtcID: crtc) }
            head.connectorID = connector.id
            head.crtcID = crtc
            head.crtcIndex = index
            head.planeID = card.atomic ? AtomicRequest.primaryPlane(card: card, crtcIndex: index) : nil
            head.mode = mode
            if head.buffers.first?.width != mode.width || head.buffers.first?.height != mode.height {
                head.buffers = []
                head.buffers = [try DumbFramebuffer(card: card, width: mode.width, height: mode.height),
                                try DumbFramebuffer(card: card, width: mode.width, height: mode.height)]
            }
            head.front = 0
            let first = head.buffers[0]
            // The modeset scans out a frame drawn for it, so the display shows content
            // from its first vblank without a flip.
            head.frames.drawModesetFrame(into: first, period: mode.videoMode.period)
            try kms.enable(head, framebuffer: first.framebufferID)
            head.status.mode = mode.videoMode
            head.status.available = true
            head.disableWhenFlipped = false
            let latency = hotplugAt.map { String(format: ", %.0f ms after the hotplug event", (loop.clock() - $0) * 1000) }
            log("displays: \(head.role) \(head.connectorName) on at \(mode.videoMode) (\(kms.name)\(latency ?? ""))")
            head.frames.modeset(period: mode.videoMode.period, withFrame: true)
            notify(head)
        } catch {
            log("displays: \(head.role) \(head.connectorName): \(error)")
            head.crtcID = nil
            head.status.available = false
            notify(head)
        }
    }

    private func takeDown(_ head: DRMHead, reason: String) {
        let flipQueued = head.frames.inFlight
        head.frames.disconnect(keepingQueuedFlip: flipQueued)
        let wasAvailable = head.status.available
        head.status.available = false
        if flipQueued {
            head.disableWhenFlipped = true
        } else {
            kms?.disable(head)
            head.crtcID = nil
        }
        if wasAvailable {
            log("displays: \(head.role) \(head.connectorName) off (\(reason))")
            notify(head)
        }
    }

    private func notify(_ head: DRMHead) {
        delegate?.displayStatusChanged(head.role, head.status)
    }
}

/// The frame side of the DRM backend: its heads' schedulers draw into the back buffer
/// and flip it, and the kernel's completion events say when each frame reached the
/// glass.
extension DRMBackend: FrameSchedulerOwner {
    func drawBuffer(for role: DisplayRole) -> (any FrameBuffer)? {
        guard active, kms != nil else { return nil }
        return heads[role]?.backBuffer
    }

    func drawFrame(for role: DisplayRole, into target: FrameTarget) -> Bool {
        delegate?.drawFrame(for: role, into: target) ?? false
    }

    /// Queues the flip of the back buffer; the kernel's event completes it.
    func show(_ role: DisplayRole, target: Double) -> FrameScheduler.Showing {
        guard let head = heads[role], let kms, let back = head.backBuffer else { return .nowhere }
        let rc = kms.flip(head, framebuffer: back.framebufferID, userData: Unmanaged.passUnretained(self).toOpaque())
        if rc == EBUSY { return .busy }
        if rc != 0 {
            log("displays: \(head.role) flip failed: \(String(cString: strerror(rc)))")
            return .failed
        }
        head.front = 1 - head.front
        return .queued
    }

    func presented(_ role: DisplayRole, _ stamp: FlipStamp) {
        guard let head = heads[role] else { return }
        head.status.recordFlip(stamp, head.frames.pacer)
        if head.disableWhenFlipped {
            head.disableWhenFlipped = false
            kms?.disable(head)
            head.crtcID = nil
            return
        }
        delegate?.framePresented(head.role, stamp)
    }

    func handleDRMEvents() {
        guard let card else { return }
        var context = drmEventContext()
        context.version = 3
        context.page_flip_handler2 = { _, sequence, seconds, microseconds, crtcID, userData in
            guard let userData else { return }
            let backend = Unmanaged<DRMBackend>.fromOpaque(userData).takeUnretainedValue()
            backend.flipCompleted(crtcID: crtcID, sequence: sequence,
                                  time: Double(seconds) + Double(microseconds) / 1e6)
        }
        drmHandleEvent(card.fd, &context)
    }

    private func flipCompleted(crtcID: UInt32, sequence: UInt32, time: Double) {
        guard let head = heads.values.first(where: { $0.crtcID == crtcID }) else { return }
        head.frames.flipCompleted(time: card?.monotonicTimestamps == true ? time : loop.clock(), sequence: sequence)
    }

    func waitForPendingFlips(card: DRMCard, timeout: Double) {
        let deadline = loop.clock() + timeout
        while heads.values.contains(where: \.frames.inFlight), loop.clock() < deadline {
            var pfd = pollfd(fd: card.fd, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 20) > 0 { handleDRMEvents() }
        }
    }
}
