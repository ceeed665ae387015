import Stage

/// What a `GridPacedHead` needs from its backend: the pixels to draw into, the drawing
/// itself (the backend's delegate) and the showing.
protocol GridPacedHeadOwner: AnyObject {
    /// The buffer `role`'s next frame is drawn into; nil when there is none now.
    func drawBuffer(for role: DisplayRole) -> HeadlessFramebuffer?
    /// Draws the whole frame (the backend's delegate); false when nothing changed.
    func drawFrame(for role: DisplayRole, into target: FrameTarget) -> Bool
    /// Shows the frame just drawn for the vblank at `target`; returns when it counts as
    /// shown (`target`, or later when showing took longer), nil if it cannot be shown.
    func show(_ role: DisplayRole, target: Double) -> Double?
    /// The frame is on its way (a window pumps its events now, not inside `show`).
    func submitted(_ role: DisplayRole)
    /// The frame counts as shown at `stamp`: buffers swap, the delegate hears of it.
    func presented(_ role: DisplayRole, _ stamp: FlipStamp)
}

/// One display whose flips complete on a vblank grid of the loop's clock rather than
/// by a kernel event: the headless displays and the desktop windows. The frame
/// bookkeeping both share is here (what was asked for, when to compose for which
/// vblank, when the frame counts as shown, the status's flip figures); the backend
/// owns the pixels and the showing. DRM has its own (`DRMHead`): its flips are the
/// kernel's events.
final class GridPacedHead {
    let role: DisplayRole
    private(set) var status: DisplayStatus
    private var pacer = FramePacer(period: 1.0 / 60)
    private var frameRequested = false
    private var mustDraw = true
    private var showingContent = false
    /// A frame is on its way to its vblank.
    private var busy = false
    private var composing = false
    private var timer: EventLoop.TimerID?
    private var halted = false
    private let loop: EventLoop
    private weak var owner: (any GridPacedHeadOwner)?

    init(role: DisplayRole, status: DisplayStatus, loop: EventLoop, owner: any GridPacedHeadOwner) {
        self.role = role
        self.status = status
        self.loop = loop
        self.owner = owner
    }

    deinit {
        if let timer { loop.cancel(timer) }
    }

    /// True when the display shows its latest frame: nothing asked for, composing or
    /// on its way. Tests poll for this instead of sleeping.
    var isSettled: Bool { !frameRequested && !mustDraw && !busy && !composing && timer == nil }

    /// The display appears at `mode` (a modeset: the grid is anchored now) and draws.
    func connect(mode: VideoMode) {
        status.connected = true
        status.available = true
        status.mode = mode
        pacer.modeset(period: mode.period, at: loop.clock())
        busy = false
        showingContent = false
        mustDraw = true
        schedule()
    }

    /// The display goes away as an unplugged monitor does; a frame on its way is dropped.
    func disconnect() {
        if let timer { loop.cancel(timer) }
        timer = nil
        status.connected = false
        status.available = false
        busy = false
        showingContent = false
    }

    /// The backend shuts down: nothing more is composed or shown (the status stays).
    func halt() {
        if let timer { loop.cancel(timer) }
        timer = nil
        busy = false
        halted = true
    }

    func requestFrame() {
        frameRequested = true
        schedule()
    }

    /// The operator's toggle; returns whether it changed anything.
    func setEnabled(_ enabled: Bool) -> Bool {
        guard status.enabled != enabled else { return false }
        status.enabled = enabled
        mustDraw = true
        requestFrame()
        return true
    }

    private func schedule() {
        guard !halted, status.available, frameRequested || mustDraw, !busy, !composing, timer == nil else { return }
        let (composeAt, target) = pacer.schedule(now: loop.clock())
        timer = loop.addTimer(at: composeAt) { [weak self] in
            self?.timer = nil
            self?.compose(target: target)
        }
    }

    private func compose(target: Double) {
        guard status.available, let owner else { return }
        frameRequested = false
        let mustDraw = self.mustDraw
        self.mustDraw = false
        var changed = mustDraw
        if status.enabled {
            if let buffer = owner.drawBuffer(for: role) {
                composing = true
                let frame = FrameTarget(width: buffer.width, height: buffer.height, stride: buffer.stride,
                                        pixels: buffer.pixels, presentationTime: target, mustDraw: mustDraw)
                changed = owner.drawFrame(for: role, into: frame) || mustDraw
                composing = false
            }
        } else {
            owner.drawBuffer(for: role)?.clear()
            changed = changed || showingContent
        }
        // The delegate may have unplugged the display while it drew (a window closed).
        guard changed, status.available, let shownAt = owner.show(role, target: target) else {
            // Nothing new for this vblank: a frame asked for meanwhile (text that has not
            // moved a whole pixel yet) is for the next one, composed once this one passed.
            if frameRequested, status.available {
                timer = loop.addTimer(at: target) { [weak self] in
                    self?.timer = nil
                    self?.schedule()
                }
            }
            return
        }
        showingContent = status.enabled
        busy = true
        pacer.submitted(target: target)
        timer = loop.addTimer(at: shownAt) { [weak self] in
            self?.timer = nil
            self?.completed(at: shownAt)
        }
        owner.submitted(role)
    }

    private func completed(at time: Double) {
        guard status.available else { return }
        busy = false
        let stamp = pacer.flipCompleted(time: time, sequence: UInt32(truncatingIfNeeded: pacer.flips + 1))
        status.lastFlip = stamp
        status.flips = pacer.flips
        status.missedVblanks = pacer.missedVblanks
        owner?.presented(role, stamp)
        schedule()
    }
}
