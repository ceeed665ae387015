import Foundation

/// The scroll engine: transport, speed and the scroll offset as a pure function of time.
///
/// A value type owned by the one event-loop thread. Every mutating call takes the time
/// `t` (seconds, CLOCK_MONOTONIC) at which it happens; the caller reads the clock. The
/// engine keeps the transport (playing, paused, stopped, a countdown, the speed) and
/// moves a `ScrollTrack`, which keeps where the text is over time as a short timeline of
/// `ScrollSegment`s (see there for the ramp maths): each play, pause, resume, speed
/// change or layout change banks the offset and the actual rate at its time and starts
/// a new segment. `offset(at:)` evaluates that timeline in closed form, so the same t
/// always gives the same answer and a future t (the predicted vblank) is fine.
///
/// Mutations are expected in time order. One issued for an earlier t than a previous
/// one rewrites the timeline from that t on (the later call wins for later times).
public struct PrompterEngine: Sendable, Equatable {
    /// Every speed change, play and pause moves the actual rate linearly over this time.
    public static let rampDuration = 0.3
    /// How far back the timeline is kept, so a pause can be applied at a past time.
    public static let historyWindow = 5.0
    /// A jump (marker, start, loop) glides there over this time instead of blinking.
    public static let glideDuration = 0.3

    /// Seconds of 3-2-1 before the text moves when play starts from a stop (0: none).
    public var countdownSeconds = 0
    /// What happens when the end of the text reaches the reading line.
    public var endBehavior: EndBehavior {
        get { track.endBehavior }
        set { track.endBehavior = newValue }
    }
    /// When the current countdown ends (the text starts moving then); nil when none.
    public private(set) var countdownEnd: Double?

    public private(set) var state: TransportState = .stopped
    /// Target speed in pixels per second on the outer display, always in `ScrollSpeed.range`.
    public private(set) var speed: Int
    /// The offset at which the end of the text reaches the reading line.
    public var maxOffset: Double { track.maxOffset }
    /// Times the run went round from the end to the top (`endBehavior` loop).
    public var loops: Int { track.loops }

    private var track = ScrollTrack()

    public init(speed: Int = ScrollSpeed.defaultValue) {
        self.speed = ScrollSpeed.clamped(speed)
    }

    // MARK: Reading the timeline (pure)

    /// Scroll offset in pixels at time t, clamped to 0...maxOffset.
    public func offset(at t: Double) -> Double { track.offset(at: t) }

    /// Where the text is at t, or is going when a jump glides there: a jump under way
    /// counts as arrived (two quick marker presses go two markers on).
    public func positionIgnoringGlide(at t: Double) -> Double { track.positionIgnoringGlide(at: t) }

    /// The transport's rate at t in px/s, ramps included and a jump's glide left out: the
    /// speed the text keeps once a glide has landed (what a follower rig extrapolates with).
    public func transportRate(at t: Double) -> Double { track.transportRate(at: t) }

    /// Whether a jump's glide is still under way at t.
    public func isGliding(at t: Double) -> Bool { track.isGliding(at: t) }

    /// The actual scroll rate at t in px/s, including ramps; 0 once the end is reached.
    public func currentRate(at t: Double) -> Double { track.currentRate(at: t) }

    /// The actual rate at t with its sign, negative while the text moves back (what the
    /// status reports: `currentRate` reads 0 then).
    public func signedRate(at t: Double) -> Double { track.signedRate(at: t) }

    /// True when the text has reached its end: auto-stopped, or playing past the end at t.
    public func isEnded(at t: Double) -> Bool {
        if track.endedAtEnd { return true }
        return state == .playing && track.hasReachedEnd(at: t)
    }

    /// The transport state as it reads at t: playing turns into stopped at the end.
    public func state(at t: Double) -> TransportState {
        state == .playing && isEnded(at: t) ? .stopped : state
    }

    /// True while the text moves at t (playing, still easing out of a pause, or gliding
    /// to a jump's target), so the display loop knows whether frames are needed at all.
    /// A glide counts whatever its direction: a jump back while paused has a negative
    /// rate, and at the jump's own instant its rate is still 0.
    public func isMoving(at t: Double) -> Bool { track.isMoving(at: t) }

    /// When the current run reaches the end, for scheduling the auto-stop; nil if it never does.
    /// A run in reverse ends at the top instead.
    public func endTime() -> Double? {
        guard state == .playing else { return nil }
        return track.timeReachingEnd()
    }

    /// True while playing backwards (a hand controller's reverse).
    public var isReversing: Bool { state == .playing && track.runsInReverse }

    // MARK: Transport

    /// Starts playback: from the top when stopped or at the end, else from where it is.
    public mutating func play(at t: Double) {
        commitAutoStop(at: t)
        guard state != .playing else { return }
        let atEnd = track.endedAtEnd || track.hasReachedEnd(at: t)
        let from = atEnd ? 0 : offset(at: t)
        if state == .stopped, countdownSeconds > 0 {
            // The text holds still through the countdown; the run is already on the
            // track, so offset(at:) needs no timer to start it.
            let begin = t + Double(countdownSeconds)
            track.hold(from, at: t)
            track.setOff(from: from, at: begin, toward: Double(speed))
            countdownEnd = begin
        } else {
            if atEnd {
                track.setOff(from: 0, at: t, toward: Double(speed))
            } else {
                track.ramp(from: from, rate: max(0, track.rampRate(at: t)), to: Double(speed), at: t)
            }
            countdownEnd = nil
        }
        state = .playing
    }

    /// Continues from a pause; does nothing unless paused.
    public mutating func resume(at t: Double) {
        guard state == .paused else { return }
        play(at: t)
    }

    /// Pauses and holds the offset the engine had at t, even when t is in the recent past
    /// (the instant a finger touched the glass) and the offset was read for later times.
    /// The rate still falls linearly over `rampDuration`, placed so that it ends exactly
    /// at offset(t) (`ScrollTrack.easeToRest` has the maths).
    public mutating func pause(at t: Double) {
        commitAutoStop(at: t)
        guard state == .playing else { return }
        if isCountingDown(at: t) { return cancelCountdown(at: t) }
        track.easeToRest(at: t)
        state = .paused
    }

    /// Space bar and the outer display's tap: pause when playing, else play or resume.
    public mutating func togglePlayPause(at t: Double) {
        if isCountingDown(at: t) {
            cancelCountdown(at: t)
        } else if state(at: t) == .playing {
            pause(at: t)
        } else {
            play(at: t)
        }
    }

    /// Back to the top and stopped.
    public mutating func stop(at t: Double) {
        track.hold(0, at: t)
        state = .stopped
        countdownEnd = nil
    }

    /// True while the 3-2-1 before a run is under way at t.
    public func isCountingDown(at t: Double) -> Bool {
        guard state == .playing, let end = countdownEnd else { return false }
        return t < end
    }

    /// Whole seconds the countdown still shows at t (3, 2, 1), nil when none runs.
    public func countdownShown(at t: Double) -> Int? {
        guard isCountingDown(at: t), let end = countdownEnd else { return nil }
        return max(1, Int((end - t).rounded(.up)))
    }

    /// A tap or Space during the countdown: no run, stopped where it was.
    public mutating func cancelCountdown(at t: Double) {
        guard isCountingDown(at: t) else { return }
        let held = offset(at: t)
        track.hold(held, at: t)
        state = held > 0 ? .paused : .stopped
        countdownEnd = nil
    }

    /// Back to the top; keeps playing (ramping up from rest) if it was playing.
    public mutating func rewind(at t: Double) {
        commitAutoStop(at: t)
        if isCountingDown(at: t) {
            moveCountdownStart(at: t) { _ in 0 }
        } else if state == .playing {
            track.setOff(from: 0, at: t, toward: Double(speed))
        } else {
            track.hold(0, at: t)
        }
    }

    /// Glides to `target` over `glideDuration` (a marker, the start): the text never
    /// blinks, and playing goes on playing at its rate (any ramp under way carries on)
    /// while paused stays paused. A stopped engine moved down becomes paused, as `seek`.
    public mutating func jump(to target: Double, at t: Double, glide: Double = PrompterEngine.glideDuration) {
        commitAutoStop(at: t)
        let position = track.clamped(target)
        if isCountingDown(at: t) { return moveCountdownStart(at: t) { _ in position } }
        track.glide(to: position, at: t, over: glide, keepingRun: state == .playing)
        if state == .stopped, position > 0 { state = .paused }
    }

    // MARK: Speed

    /// Sets the target speed (clamped to `ScrollSpeed.range`); while playing the actual rate
    /// ramps from whatever it is at t to the new speed over `rampDuration`.
    public mutating func setSpeed(_ value: Int, at t: Double) {
        commitAutoStop(at: t)
        let clamped = ScrollSpeed.clamped(value)
        guard clamped != speed else { return }
        speed = clamped
        guard state == .playing else { return }
        if isCountingDown(at: t), let begin = countdownEnd {
            track.setOff(from: offset(at: t), at: begin, toward: Double(clamped))
            return
        }
        track.ramp(to: Double(clamped), at: t)
    }

    public mutating func faster(at t: Double) {
        setSpeed(speed + ScrollSpeed.step, at: t)
    }

    public mutating func slower(at t: Double) {
        setSpeed(speed - ScrollSpeed.step, at: t)
    }

    // MARK: A hand controller

    /// A hand controller's position as a signed rate in px/s (issue 40). Forward plays at
    /// that speed, from a stop too and with no countdown (a hand on the control is the
    /// operator starting the text); reverse scrolls back at it; 0, the control back in
    /// its neutral band, pauses. Every change goes through the usual ramp, and a reverse
    /// run stops at the top (committed at `endTime()`), never past it.
    public mutating func drive(rate: Double, at t: Double) {
        commitAutoStop(at: t)
        guard rate.isFinite else { return }
        if rate == 0 {
            guard state == .playing else { return }
            if isCountingDown(at: t) { return cancelCountdown(at: t) }
            track.ramp(to: 0, at: t)
            state = .paused
            return
        }
        speed = ScrollSpeed.clamped(Int(abs(rate).rounded()))
        let here = offset(at: t)
        // Nothing further that way: the end ahead, the top behind.
        if rate > 0, track.endedAtEnd || here >= maxOffset { return }
        if rate < 0, here <= 0 {
            if state == .playing { track.hold(0, at: t); state = .paused }
            return
        }
        countdownEnd = nil
        track.ramp(from: here, rate: track.rampRate(at: t), to: rate > 0 ? Double(speed) : -Double(speed), at: t)
        state = .playing
    }

    /// A follower rig's hand on the engine: plays at exactly `rate` px/s (the lead's rate
    /// in this layout, with a correction) through the usual ramp, keeping a glide under
    /// way; 0 eases to a pause as `drive` does. Not rounded or clamped to `ScrollSpeed`:
    /// the lead's lines a second may need more pixels here, with a larger font. `speed`
    /// shows it rounded, and is what the operator's keys start from after a takeover.
    /// `rampEndingIn`: the lead's own ramp ends that many seconds from t, and so does
    /// this one (heard of late, it is steeper), rather than lagging by the news's delay.
    public mutating func pursue(rate: Double, at t: Double, rampEndingIn leadRamp: Double = 0) {
        guard rate.isFinite else { return }
        guard rate > 0 else { return drive(rate: 0, at: t) }
        commitAutoStop(at: t)
        let here = offset(at: t)
        if track.endedAtEnd || here >= maxOffset { return }
        speed = ScrollSpeed.clamped(Int(rate.rounded()))
        countdownEnd = nil
        let now = track.rampRate(at: t)
        var rampSeconds = Self.rampDuration
        // A new rate mid-ramp keeps the ramp's slope, as the lead's own ramp does: a
        // follower steering every few frames must not stretch its ramp each time.
        if leadRamp > 0 {
            rampSeconds = min(max(leadRamp, 0.02), Self.rampDuration)
        } else if let slope = track.rampSlope(at: t) {
            rampSeconds = min(max(abs(rate - now) / slope, 0.02), Self.rampDuration)
        }
        track.ramp(from: here, rate: now, to: rate, at: t, over: rampSeconds)
        state = .playing
    }

    /// A follower rig's countdown: the text holds where it is until `end` (when the lead's
    /// countdown ends, on this rig's clock), then ramps to `rate` px/s; the digits show
    /// meanwhile as for a countdown of this rig's own.
    public mutating func countDown(until end: Double, rate: Double, at t: Double) {
        guard end > t, rate > 0, rate.isFinite else { return }
        commitAutoStop(at: t)
        let from = offset(at: t)
        track.hold(from, at: t)
        track.setOff(from: from, at: end, toward: rate)
        speed = ScrollSpeed.clamped(Int(rate.rounded()))
        countdownEnd = end
        state = .playing
    }

    /// The rate the transport is ramping towards (0 at rest).
    public var targetRate: Double { state == .playing ? track.targetRate : 0 }

    /// The transport's motion from t on, in px (a follower rig's lead publishes it in lines).
    public func motion(at t: Double) -> TransportMotion {
        // Counting down: at rest, then the start's ramp at the countdown's end.
        if isCountingDown(at: t), let end = countdownEnd {
            return TransportMotion(rate: 0, targetRate: track.targetRate, rampSeconds: Self.rampDuration,
                                   delay: end - t)
        }
        return track.motion(at: t)
    }

    // MARK: Layout

    /// Sets where the end of the text reaches the reading line (negative reads as 0).
    /// Playback auto-stops there.
    public mutating func setMaxOffset(_ value: Double) {
        track.setMaxOffset(value)
    }

    /// The content height changed (font size, margins, column width, rotation). The
    /// caller, which knows both layouts, maps the offset at t to the offset of the same
    /// word in the new layout; the engine continues from there with the same rate and
    /// what is left of any ramp, so the reading position stays on that word.
    public mutating func relayout(at t: Double, newMaxOffset: Double, mapOffset: (Double) -> Double) {
        commitAutoStop(at: t)
        guard isCountingDown(at: t) else {
            return track.relayout(at: t, newMaxOffset: newMaxOffset, mapOffset: mapOffset)
        }
        moveCountdownStart(at: t) { track in
            track.relayout(at: t, newMaxOffset: newMaxOffset, mapOffset: mapOffset)
            return track.offset(at: t)
        }
    }

    /// A move during the countdown (a jump, a seek, back to the top, a relayout) moves
    /// where the run will start, not when or how fast: the text holds at the position
    /// `move` gives and the run still sets off at the countdown's end, at its rate.
    /// Without this the move replaced the run: the digits counted down and the text
    /// never started (a marker jump), or it started under the digits (back to the top).
    private mutating func moveCountdownStart(at t: Double, _ move: (inout ScrollTrack) -> Double) {
        guard let begin = countdownEnd else { return }
        let rate = track.targetRate
        let position = move(&track)
        track.hold(position, at: t)
        track.setOff(from: position, at: begin, toward: rate)
    }

    /// Opens a script: stopped at the top, with its end where the layout says.
    public mutating func open(at t: Double, maxOffset: Double) {
        stop(at: t)
        setMaxOffset(maxOffset)
    }

    /// Jumps to an offset (restoring a saved position, the operator scrubbing). Playing
    /// continues from there at its current rate; otherwise the engine holds it, paused
    /// (stopped means "at the top", so a stopped engine moved down becomes paused).
    public mutating func seek(to target: Double, at t: Double) {
        commitAutoStop(at: t)
        if isCountingDown(at: t) {
            return moveCountdownStart(at: t) { $0.clamped(target) }
        }
        let position = track.seek(to: target, at: t, keepingRun: state == .playing)
        if state == .stopped, position > 0 { state = .paused }
    }

    // MARK: The end of the text

    /// The rate of the transport alone at t (a glide's motion left out).
    func rampRate(at t: Double) -> Double { track.rampRate(at: t) }

    /// Commits an auto-stop that happened at or before t, so later calls see `stopped`.
    /// With `endBehavior` loop the run glides back to the top at the end and goes on.
    private mutating func commitAutoStop(at t: Double) {
        guard state == .playing else { return }
        switch track.commitEnd(at: t, lapRate: Double(speed)) {
        case .running, .wentRound: break
        case .heldAtTop: state = .paused
        case .stoppedAtEnd: state = .stopped
        }
    }

    /// Brings the timeline up to t with nothing else changed: the stage calls it at
    /// `endTime()` so a loop goes round (or an end is committed) on time.
    public mutating func commit(at t: Double) {
        commitAutoStop(at: t)
    }
}
