import Stage

/// Displays of given sizes in memory, behind the same interface as DRM: for tests,
/// `rig snapshot` and machines with no displays. Flips "complete" on a vblank grid of
/// the given refresh on the loop's clock, so pacing behaves as on a real display.
final class HeadlessBackend: DisplayBackend {
    weak var delegate: (any DisplayBackendDelegate)?

    private struct Head {
        var status: DisplayStatus
        var front: HeadlessFramebuffer
        var back: HeadlessFramebuffer
        var pacer: FramePacer
        var frameRequested = false
        var mustDraw = true
        var showingContent = false
        var busy = false
        var composing = false
    }

    private let loop: EventLoop
    private let mode: [DisplayRole: VideoMode]
    /// The configured connector names, so a headless rendering reads as the rig's.
    private let connectors: [DisplayRole: String]
    private var heads: [DisplayRole: Head] = [:]
    private var timers: [DisplayRole: EventLoop.TimerID] = [:]

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
        guard let mode = mode[role], heads[role]?.status.available != true else { return }
        var status = heads[role]?.status ?? DisplayStatus(connector: connectorName(role))
        status.connected = true
        status.available = true
        status.mode = mode
        var pacer = FramePacer(period: mode.period)
        pacer.modeset(period: mode.period, at: loop.clock())
        heads[role] = Head(status: status, front: HeadlessFramebuffer(width: mode.width, height: mode.height),
                           back: HeadlessFramebuffer(width: mode.width, height: mode.height), pacer: pacer)
        delegate?.displayStatusChanged(role, status)
        schedule(role)
    }

    /// Simulated unplug: the display becomes unavailable; the other is untouched.
    func simulateUnplug(_ role: DisplayRole) { disconnect(role) }

    func disconnect(_ role: DisplayRole) {
        guard var head = heads[role], head.status.available else { return }
        if let timer = timers.removeValue(forKey: role) { loop.cancel(timer) }
        head.status.connected = false
        head.status.available = false
        head.busy = false
        heads[role] = head
        delegate?.displayStatusChanged(role, head.status)
    }

    private func connectorName(_ role: DisplayRole) -> String {
        connectors[role].flatMap { $0 == DisplayConfiguration.automatic ? nil : $0 } ?? "headless-\(role)"
    }

    func requestFrame(_ role: DisplayRole) {
        heads[role]?.frameRequested = true
        schedule(role)
    }

    func setEnabled(_ enabled: Bool, for role: DisplayRole) {
        guard var head = heads[role], head.status.enabled != enabled else { return }
        head.status.enabled = enabled
        head.mustDraw = true
        heads[role] = head
        delegate?.displayStatusChanged(role, head.status)
        requestFrame(role)
    }

    func status(of role: DisplayRole) -> DisplayStatus {
        heads[role]?.status ?? DisplayStatus(connector: connectorName(role))
    }

    func shutdown() {
        for (_, timer) in timers { loop.cancel(timer) }
        timers = [:]
        for role in heads.keys { heads[role]?.front.clear() }
    }

    /// True when the display shows its latest frame: nothing asked for, composing or
    /// waiting for its flip. Tests poll for this instead of sleeping.
    func isSettled(_ role: DisplayRole) -> Bool {
        guard let head = heads[role] else { return true }
        return !head.frameRequested && !head.mustDraw && !head.busy && !head.composing && timers[role] == nil
    }

    /// What the display shows now (the last completed flip).
    func screen(_ role: DisplayRole) -> HeadlessFramebuffer? { heads[role]?.front }

    func shownImagePPM(_ role: DisplayRole) -> [UInt8]? { screen(role)?.ppm() }

    private func schedule(_ role: DisplayRole) {
        guard let head = heads[role], head.status.available, head.frameRequested || head.mustDraw,
              !head.busy, !head.composing, timers[role] == nil else { return }
        let (composeAt, target) = head.pacer.schedule(now: loop.clock())
        timers[role] = loop.addTimer(at: composeAt) { [weak self] in
            self?.timers[role] = nil
            self?.compose(role, target: target)
        }
    }

    private func compose(_ role: DisplayRole, target: Double) {
        guard var head = heads[role], head.status.available else { return }
        head.frameRequested = false
        let mustDraw = head.mustDraw
        head.mustDraw = false
        var changed = mustDraw
        if head.status.enabled {
            let back = head.back
            head.composing = true
            heads[role] = head
            let frame = FrameTarget(width: back.width, height: back.height, stride: back.stride,
                                    pixels: back.pixels, presentationTime: target, mustDraw: mustDraw)
            changed = (delegate?.drawFrame(for: role, into: frame) ?? false) || mustDraw
            guard let latest = heads[role] else { return }
            head = latest
            head.composing = false
        } else {
            head.back.clear()
            changed = changed || head.showingContent
        }
        guard changed else {
            heads[role] = head
            // Nothing new for this vblank: a frame asked for meanwhile (text that has not
            // moved a whole pixel yet) is for the next one, composed once this one passed.
            if head.frameRequested {
                timers[role] = loop.addTimer(at: target) { [weak self] in
                    self?.timers[role] = nil
                    self?.schedule(role)
                }
            }
            return
        }
        head.showingContent = head.status.enabled
        head.busy = true
        head.pacer.submitted(target: target)
        heads[role] = head
        timers[role] = loop.addTimer(at: target) { [weak self] in
            self?.timers[role] = nil
            self?.flipCompleted(role, at: target)
        }
    }

    private func flipCompleted(_ role: DisplayRole, at time: Double) {
        guard var head = heads[role] else { return }
        swap(&head.front, &head.back)
        head.busy = false
        head.status.lastFlip = head.pacer.flipCompleted(time: time, sequence: UInt32(truncatingIfNeeded: head.pacer.flips + 1))
        head.status.flips = head.pacer.flips
        head.status.missedVblanks = head.pacer.missedVblanks
        heads[role] = head
        if let stamp = head.status.lastFlip { delegate?.framePresented(role, stamp) }
        schedule(role)
    }
}
