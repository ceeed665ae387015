import Glibc
import Stage

/// A buffer a display's frame is drawn into: a DRM dumb buffer, or a headless or
/// window framebuffer in memory.
protocol FrameBuffer: AnyObject {
    var width: Int { get }
    var height: Int { get }
    var stride: Int { get }
    var pixels: UnsafeMutableRawPointer { get }
    func clear()
}

/// What a backend gives the scheduler of each of its displays: the display's status,
/// the buffer to draw into, the drawing (its delegate), the showing and the hearing
/// that a frame was shown.
protocol FrameSchedulerOwner: AnyObject {
    /// Only `available` and `enabled` are read here.
    func status(of role: DisplayRole) -> DisplayStatus
    /// The buffer `role`'s next frame is drawn into; nil when there is none now.
    func drawBuffer(for role: DisplayRole) -> (any FrameBuffer)?
    /// Draws the whole frame (the backend's delegate); false when nothing changed.
    func drawFrame(for role: DisplayRole, into target: FrameTarget) -> Bool
    /// Shows the frame just drawn into the draw buffer, for the vblank at `target`.
    func show(_ role: DisplayRole, target: Double) -> FrameScheduler.Showing
    /// The frame counts as shown at `stamp`: buffers swap, the delegate hears of it.
    func presented(_ role: DisplayRole, _ stamp: FlipStamp)
}

/// When one display composes which frame, the same for every backend (DRM, headless,
/// the desktop windows), as cage has one render path: a frame asked for is composed a
/// repaint window before the vblank it aims at (`FramePacer`), one asked for now is
/// composed as soon as the buffer is free (the cue's frame), one asked for ahead is
/// drawn into the free buffer and held until a frame finds it still right (the cue at
/// the speech's end). A frame is shown at once when it changed, never otherwise; a
/// display busy with a flip is retried with the frame drawn; a flip refused or never
/// reported draws afresh rather than freeze the display.
final class FrameScheduler {
    enum Showing {
        /// Shown at this time on the loop's clock (a display paced on a vblank grid of
        /// the loop's clock: headless, a window).
        case at(Double)
        /// On its way; the kernel's flip event says when (`flipCompleted`).
        case queued
        /// The display still holds a flip (EBUSY): the frame drawn is shown again shortly.
        case busy
        /// Refused: the next frame is drawn afresh a refresh period later.
        case failed
        /// Nowhere to show it now (a window closed meanwhile).
        case nowhere
    }

    let role: DisplayRole
    private(set) var pacer = FramePacer(period: 1.0 / 60)
    private let loop: EventLoop
    private weak var owner: (any FrameSchedulerOwner)?
    private let log: (String) -> Void
    private var frameRequested = false
    /// The frame asked for is composed as soon as the buffer is free (`requestFrameNow`).
    private var requestedNow = false
    /// The next frame must be drawn and shown whatever the delegate says.
    private var mustDraw = true
    /// A frame to draw ahead for this presentation time once idle (`prepareFrame`).
    private var prepareFor: Double?
    /// The draw buffer holds the frame drawn ahead, untouched since.
    private var holdsPrepared = false
    /// The screen shows content (not black for a display turned off).
    private var showingContent = false
    /// Inside the delegate's draw: a request made there is served after this frame.
    private var composing = false
    /// A frame is on its way to the screen.
    private(set) var inFlight = false
    private var halted = false
    private var composeTimer: EventLoop.TimerID?
    private var retryTimer: EventLoop.TimerID?
    private var completionTimer: EventLoop.TimerID?

    init(role: DisplayRole, loop: EventLoop, owner: any FrameSchedulerOwner, log: @escaping (String) -> Void = { _ in }) {
        self.role = role
        self.loop = loop
        self.owner = owner
        self.log = log
    }

    deinit { cancelTimers() }

    /// True when the display shows its latest frame: nothing asked for, composing or on
    /// its way. Tests poll for this instead of sleeping.
    var isSettled: Bool {
        !frameRequested && !mustDraw && prepareFor == nil && !inFlight && !composing && composeTimer == nil
            && retryTimer == nil
    }

    // MARK: the display's life

    /// A modeset at `period`: the grid is anchored now. Unless the modeset scanned out a
    /// frame drawn for it (`drawModesetFrame`), the next frame is drawn at once.
    func modeset(period: Double, withFrame drawn: Bool = false) {
        cancelTimers()
        pacer.modeset(period: period, at: loop.clock())
        halted = false
        inFlight = false
        if !drawn {
            holdsPrepared = false
            showingContent = false
            mustDraw = true
        }
        schedule()
    }

    /// The frame a modeset scans out, drawn into `buffer` before it (then
    /// `modeset(period:withFrame: true)`).
    func drawModesetFrame(into buffer: any FrameBuffer, period: Double) {
        cancelTimers()
        holdsPrepared = false
        mustDraw = true
        showingContent = draw(into: buffer, target: loop.clock() + period)
    }

    /// The display went away (unplugged, the window closed). A flip queued meanwhile
    /// stays in flight until its event says it is done (`flipCompleted`).
    func disconnect(keepingQueuedFlip: Bool = false) {
        cancelTimers()
        prepareFor = nil
        holdsPrepared = false
        showingContent = false
        if !keepingQueuedFlip { inFlight = false }
    }

    /// Nothing more is composed or shown (the backend shuts down, or lost the device).
    func halt() {
        cancelTimers()
        inFlight = false
        halted = true
    }

    private func cancelTimers() {
        for timer in [composeTimer, retryTimer, completionTimer].compactMap({ $0 }) { loop.cancel(timer) }
        composeTimer = nil
        retryTimer = nil
        completionTimer = nil
    }

    // MARK: what the stage asks

    func requestFrame() {
        frameRequested = true
        schedule()
    }

    func requestFrameNow() {
        frameRequested = true
        requestedNow = true
        // A compose already timed for the repaint window is brought forward.
        if let composeTimer, !composing {
            loop.cancel(composeTimer)
            self.composeTimer = nil
        }
        schedule()
    }

    func prepareFrame(for time: Double) {
        prepareFor = time
        schedule()
    }

    /// The operator turned the display on or off: it draws (or blanks) at once.
    func enabledChanged() {
        mustDraw = true
        requestFrame()
    }

    // MARK: composing

    private func schedule() {
        guard !halted, let owner, owner.status(of: role).available, frameRequested || mustDraw || prepareFor != nil,
              !inFlight, !composing, composeTimer == nil, retryTimer == nil else { return }
        let now = loop.clock()
        let (pacedAt, target) = pacer.schedule(now: now)
        let preparing = !frameRequested && !mustDraw
        composeTimer = loop.addTimer(at: requestedNow || preparing ? now : pacedAt) { [weak self] in
            guard let self else { return }
            self.composeTimer = nil
            if !self.frameRequested && !self.mustDraw, let time = self.prepareFor {
                self.prepare(for: time)
            } else {
                // Run after its vblank (a starved loop), the compose aims at the next one:
                // drawn for a time already past, it would show the engine as it was before
                // a request the loop handled meanwhile (a play, a jump), and its flip,
                // stamped before that request, would ask for no next frame: the display
                // would stop with the text still to move.
                self.compose(target: self.pacer.reachable(target, now: self.loop.clock()))
            }
        }
    }

    /// Draws the frame for `time` into the free buffer and holds it there unflipped.
    private func prepare(for time: Double) {
        prepareFor = nil
        guard let owner, owner.status(of: role).showsContent, !inFlight, let buffer = owner.drawBuffer(for: role) else {
            return schedule()
        }
        composing = true
        let frame = FrameTarget(width: buffer.width, height: buffer.height, stride: buffer.stride, pixels: buffer.pixels,
                                presentationTime: time, mustDraw: false, preparing: true)
        if owner.drawFrame(for: role, into: frame) { holdsPrepared = true }
        composing = false
        schedule()
    }

    private func compose(target: Double) {
        guard let owner, owner.status(of: role).available, !inFlight, let buffer = owner.drawBuffer(for: role) else { return }
        frameRequested = false
        requestedNow = false
        composing = true
        let changed = draw(into: buffer, target: target)
        composing = false
        // Nothing new and nothing to blank: no flip, no CPU. A frame asked for meanwhile
        // (text that has not moved a whole pixel yet) is for the next vblank, composed
        // once this one has passed: scheduled at once, it would aim at this one again.
        guard changed else {
            guard frameRequested else { return schedule() }
            composeTimer = loop.addTimer(at: target) { [weak self] in
                self?.composeTimer = nil
                self?.schedule()
            }
            return
        }
        show(target: target, attempt: 0)
    }

    /// Asks the delegate for a frame, or blanks the buffer while the operator has the
    /// display turned off. Returns whether the buffer now differs from the screen.
    private func draw(into buffer: any FrameBuffer, target: Double) -> Bool {
        let mustDraw = self.mustDraw
        self.mustDraw = false
        guard let owner, owner.status(of: role).enabled else {
            buffer.clear()
            holdsPrepared = false
            return mustDraw || showingContent
        }
        let frame = FrameTarget(width: buffer.width, height: buffer.height, stride: buffer.stride, pixels: buffer.pixels,
                                presentationTime: target, mustDraw: mustDraw, holdsPrepared: holdsPrepared)
        let changed = owner.drawFrame(for: role, into: frame) || mustDraw
        // Drawn over, or about to be shown: either way no longer a frame held ahead.
        if changed { holdsPrepared = false }
        return changed
    }

    /// A busy display is retried every 2 ms for up to 0.25 s (a modeset's last flip).
    private static let busyRetries = 125
    private static let busyRetryDelay = 0.002
    /// A flip whose completion event does not come within a second counts as done.
    private static let flipEventLimit = 1.0

    /// Shows the frame just drawn. Busy means the kernel still holds a flip of this
    /// CRTC (one queued before a replug's modeset completes late): the frame is drawn
    /// and the stage counts it as on its way, so it is the one shown a moment later.
    /// Dropping it instead froze a display that had stopped moving on the frame before,
    /// since nothing would ask for another.
    private func show(target: Double, attempt: Int) {
        guard let owner else { return }
        switch owner.show(role, target: target) {
        case let .at(time):
            shown(target: target)
            completionTimer = loop.addTimer(at: time) { [weak self] in
                guard let self else { return }
                self.completionTimer = nil
                self.flipCompleted(time: time, sequence: UInt32(truncatingIfNeeded: self.pacer.flips + 1))
            }
        case .queued:
            shown(target: target)
            // A flip whose event never comes would hold the display on its last frame for
            // good (nothing composes while a flip is in flight).
            completionTimer = loop.addTimer(at: loop.clock() + Self.flipEventLimit) { [weak self] in
                guard let self else { return }
                self.completionTimer = nil
                guard self.inFlight, owner.status(of: self.role).available else { return }
                self.log("displays: \(self.role) flip event did not come within \(Self.flipEventLimit) s; drawing on")
                self.inFlight = false
                self.mustDraw = true
                self.schedule()
            }
        case .busy where attempt < Self.busyRetries:
            if attempt == 0 { log("displays: \(role) flip busy; retrying the drawn frame") }
            retryTimer = loop.addTimer(at: loop.clock() + Self.busyRetryDelay) { [weak self] in
                guard let self else { return }
                self.retryTimer = nil
                guard !self.halted, owner.status(of: self.role).available, !self.inFlight else {
                    // Taken down or replugged meanwhile: whatever comes next is drawn afresh.
                    self.mustDraw = true
                    return self.schedule()
                }
                self.show(target: target, attempt: attempt + 1)
            }
        case .busy, .failed:
            // Drawn but never shown: the next frame is drawn whatever the stage says, a
            // refresh period on, or a display that stopped moving would keep the frame
            // before for as long as nothing else asks for one.
            mustDraw = true
            retryTimer = loop.addTimer(at: loop.clock() + pacer.period) { [weak self] in
                self?.retryTimer = nil
                self?.schedule()
            }
        case .nowhere:
            return
        }
    }

    private func shown(target: Double) {
        showingContent = owner?.status(of: role).enabled ?? false
        inFlight = true
        pacer.submitted(target: target)
    }

    /// The frame on its way reached the screen at `time` (the kernel's flip event, or
    /// the grid's vblank) with its 32-bit vblank `sequence`.
    func flipCompleted(time: Double, sequence: UInt32) {
        guard inFlight else { return }
        inFlight = false
        if let completionTimer { loop.cancel(completionTimer) }
        completionTimer = nil
        let stamp = pacer.flipCompleted(time: time, sequence: sequence)
        owner?.presented(role, stamp)
        schedule()
    }
}
