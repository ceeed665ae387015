import Stage

/// Displays of given sizes in memory, behind the same interface as DRM: for tests,
/// `rig snapshot` and machines with no displays. Flips "complete" on a vblank grid of
/// the given refresh on the loop's clock, so pacing behaves as on a real display; the
/// frames are scheduled as on DRM (`FrameScheduler`: paced, now, drawn ahead).
final class HeadlessBackend: DisplayBackend {
    weak var delegate: (any DisplayBackendDelegate)?

    /// A display's pixels: what it shows (`front`) and what the next frame is drawn into.
    private struct Buffers {
        var front: HeadlessFramebuffer
        var back: HeadlessFramebuffer
    }

    private let loop: EventLoop
    private let mode: [DisplayRole: VideoMode]
    /// The configured connector names, so a headless rendering reads as the rig's.
    private let connectors: [DisplayRole: String]
    private var frames: [DisplayRole: FrameScheduler] = [:]
    private var statuses: [DisplayRole: DisplayStatus] = [:]
    private var buffers: [DisplayRole: Buffers] = [:]
    /// Called on the loop with each display's new front buffer as its flip completes:
    /// the kiosk's frames as they are shown (`KioskScrollProbe`).
    var onPresented: ((DisplayRole, FlipStamp, HeadlessFramebuffer) -> Void)?

    init(sizes: [DisplayRole: (width: Int, height: Int)], refreshMillihertz: Int = 60_000,
         connectors: [DisplayRole: String] = [:], loop: EventLoop) {
        self.loop = loop
        self.connectors = connectors
        var mode: [DisplayRole: VideoMode] = [:]
        for (role, size) in sizes {
            mode[role] = VideoMode(width: size.width, height: size.height, refreshMillihertz: refreshMillihertz)
        }
        self.mode = mode
    }

    func start() throws {
        for role in DisplayRole.allCases where mode[role] != nil { connect(role) }
    }

    /// Simulated hotplug: the display appears (and is "modeset").
    func connect(_ role: DisplayRole) {
        guard let mode = mode[role], statuses[role]?.available != true else { return }
        buffers[role] = Buffers(front: HeadlessFramebuffer(width: mode.width, height: mode.height),
                                back: HeadlessFramebuffer(width: mode.width, height: mode.height))
        var status = statuses[role] ?? DisplayStatus(connector: connectorName(role))
        status.connected = true
        status.available = true
        status.mode = mode
        statuses[role] = status
        let scheduler = frames[role] ?? FrameScheduler(role: role, loop: loop, owner: self)
        frames[role] = scheduler
        scheduler.modeset(period: mode.period)
        delegate?.displayStatusChanged(role, status)
    }

    /// Simulated unplug: the display becomes unavailable; the other is untouched.
    func simulateUnplug(_ role: DisplayRole) { disconnect(role) }

    func disconnect(_ role: DisplayRole) {
        guard var status = statuses[role], status.available else { return }
        status.connected = false
        status.available = false
        statuses[role] = status
        frames[role]?.disconnect()
        delegate?.displayStatusChanged(role, status)
    }

    private func connectorName(_ role: DisplayRole) -> String {
        connectors[role].flatMap { $0 == DisplayConfiguration.automatic ? nil : $0 } ?? "headless-\(role)"
    }

    func requestFrame(_ role: DisplayRole) { frames[role]?.requestFrame() }
    func requestFrameNow(_ role: DisplayRole) { frames[role]?.requestFrameNow() }
    func prepareFrame(_ role: DisplayRole, for time: Double) { frames[role]?.prepareFrame(for: time) }

    func setEnabled(_ enabled: Bool, for role: DisplayRole) {
        guard var status = statuses[role], status.enabled != enabled else { return }
        status.enabled = enabled
        statuses[role] = status
        frames[role]?.enabledChanged()
        delegate?.displayStatusChanged(role, status)
    }

    func status(of role: DisplayRole) -> DisplayStatus {
        statuses[role] ?? DisplayStatus(connector: connectorName(role))
    }

    func shutdown() {
        for scheduler in frames.values { scheduler.halt() }
        for role in buffers.keys { buffers[role]?.front.clear() }
    }

    /// True when the display shows its latest frame: nothing asked for, composing or
    /// waiting for its flip. Tests poll for this instead of sleeping.
    func isSettled(_ role: DisplayRole) -> Bool {
        frames[role]?.isSettled ?? true
    }

    /// What the display shows now (the last completed flip).
    func screen(_ role: DisplayRole) -> HeadlessFramebuffer? { buffers[role]?.front }

    func shownImagePPM(_ role: DisplayRole) -> [UInt8]? { screen(role)?.ppm() }
}

extension HeadlessBackend: FrameSchedulerOwner {
    func drawBuffer(for role: DisplayRole) -> (any FrameBuffer)? { buffers[role]?.back }

    func drawFrame(for role: DisplayRole, into target: FrameTarget) -> Bool {
        delegate?.drawFrame(for: role, into: target) ?? false
    }

    /// Memory "shows" a frame at the vblank it was made for.
    func show(_ role: DisplayRole, target: Double) -> FrameScheduler.Showing { .at(target) }

    func presented(_ role: DisplayRole, _ stamp: FlipStamp) {
        if let pacer = frames[role]?.pacer { statuses[role]?.recordFlip(stamp, pacer) }
        if var pair = buffers[role] {
            swap(&pair.front, &pair.back)
            buffers[role] = pair
            onPresented?(role, stamp, pair.front)
        }
        delegate?.framePresented(role, stamp)
    }
}
