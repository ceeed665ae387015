/// Where the prompter's text is over time and what its ends do: the timeline of
/// `ScrollSegment`s, the offset at which the end of the text reaches the reading line,
/// and the end's behaviour (stop there, or go round to the top).
///
/// It knows motion, not the transport: `PrompterEngine` decides when the text plays,
/// pauses or jumps and at what speed, and tells the track how to move from t on. When
/// a run reaches an end, `commitEnd` says what happened rather than changing the
/// transport itself, and the engine follows.
struct ScrollTrack: Sendable, Equatable {
    /// What happens when the end of the text reaches the reading line.
    var endBehavior: EndBehavior = .stop
    /// The offset at which the end of the text reaches the reading line.
    private(set) var maxOffset: Double = .infinity
    /// Set when a run reached the end and stopped there; any new motion clears it (a
    /// relayout keeps it: the text stays at the new layout's end).
    private(set) var endedAtEnd = false
    /// Times a run went round from the end to the top (`endBehavior` loop).
    private(set) var loops = 0
    private var timeline = ScrollTimeline()
    /// While the newest stretch is a lap, its glide back to the top: the end is not
    /// reached during it. Why: the lap's run starts under the glide, and a text
    /// whose end is a few pixels from the top (a short script looping fast) had the run
    /// outpace the glide and reach the end again 48 µs into the lap: the end's timer
    /// fired again and again and the text never went round.
    private var lapGlide: Range<Double>?

    /// What committing a run's end did, for the transport to follow.
    enum EndOutcome: Sendable, Equatable {
        /// Nothing: the run has not reached an end by then.
        case running
        /// A run in reverse reached the top and is held there, as if the operator let go.
        case heldAtTop
        /// The run reached the end and stopped there.
        case stoppedAtEnd
        /// The run reached the end and went round to the top (once or more); it goes on.
        case wentRound
    }

    // MARK: Reading (pure)

    /// Scroll offset at t, clamped to 0...maxOffset.
    func offset(at t: Double) -> Double {
        min(max(timeline.offset(at: t), 0), maxOffset)
    }

    /// Where the text is at t, or is going when a jump glides there.
    func positionIgnoringGlide(at t: Double) -> Double {
        min(max(timeline.segment(at: t).rampOffset(at: t), 0), maxOffset)
    }

    /// Whether the text has got to the end at t (the timeline runs on past it unclamped
    /// until the end is committed).
    func hasReachedEnd(at t: Double) -> Bool {
        if let lapGlide, lapGlide.contains(t) { return false }
        return timeline.offset(at: t) >= maxOffset
    }

    /// The transport's rate at t, ramps included and a glide left out; 0 at the end.
    func transportRate(at t: Double) -> Double {
        if hasReachedEnd(at: t) { return 0 }
        return max(0, rampRate(at: t))
    }

    /// The rate of the ramp alone at t, negative in reverse.
    func rampRate(at t: Double) -> Double { timeline.segment(at: t).rampRate(at: t) }

    /// The slope of a ramp under way at t in px/s², nil when the rate is steady there.
    func rampSlope(at t: Double) -> Double? {
        let current = timeline.segment(at: t)
        guard t < current.rampEnd, current.rampDuration > 0, current.targetRate != current.startRate else { return nil }
        return abs(current.targetRate - current.startRate) / current.rampDuration
    }

    /// Whether a jump's glide is under way at t.
    func isGliding(at t: Double) -> Bool { timeline.segment(at: t).isGliding(at: t) }

    /// The actual forward rate at t, ramps and a glide included; 0 at the end and
    /// while the text moves back.
    func currentRate(at t: Double) -> Double { max(0, signedRate(at: t)) }

    /// The rate at t in px/s with its sign: negative while the text moves back towards
    /// the top (a hand controller in reverse, its ramp to rest, a glide back); 0 at
    /// either end, where the text cannot go further that way.
    func signedRate(at t: Double) -> Double {
        let rate = timeline.segment(at: t).rate(at: t)
        if rate > 0 { return hasReachedEnd(at: t) ? 0 : rate }
        return timeline.offset(at: t) > 0 ? rate : 0
    }

    /// Whether the text moves at t: forward, back towards the top, or gliding (at a
    /// jump's own instant its rate is still 0).
    func isMoving(at t: Double) -> Bool {
        if signedRate(at: t) != 0 { return true }
        let current = timeline.segment(at: t)
        return current.isGliding(at: t) && current.glide(at: t) != 0
    }

    /// The rate the newest stretch ramps to: where the motion is heading once its ramp is done.
    var targetRate: Double { timeline.last.targetRate }

    /// Whether the newest stretch heads back towards the top (a hand controller's reverse).
    var runsInReverse: Bool { targetRate < 0 }

    /// When the newest stretch reaches its end, the top for one in reverse; nil if never.
    func timeReachingEnd() -> Double? {
        if runsInReverse { return timeline.last.mirrored.time(reaching: 0) }
        guard maxOffset.isFinite else { return nil }
        // A lap reaches the end when its glide ends at the soonest; after the glide the
        // stretch only moves forward, so a later time is the ramp's own.
        if let glideEnd = lapGlide?.upperBound, timeline.last.offset(at: glideEnd) >= maxOffset { return glideEnd }
        return timeline.last.time(reaching: maxOffset)
    }

    /// The motion from t on: rate, target and the ramp's time left (rest at the end).
    func motion(at t: Double) -> TransportMotion {
        let segment = timeline.segment(at: t)
        let rate = transportRate(at: t)
        guard rate > 0 || segment.targetRate > 0, timeline.offset(at: t) < maxOffset else { return .rest }
        return TransportMotion(rate: rate, targetRate: max(0, segment.targetRate), rampSeconds: segment.rampEnd - t)
    }

    // MARK: Moving (each from t on; the timeline after t is replaced)

    /// The text at rest at `offset`.
    mutating func hold(_ offset: Double, at t: Double) {
        append(.rest(at: t, offset: offset))
    }

    /// From rest at `offset`, ramping up to `rate` (a run's start, or a countdown's end
    /// placed ahead so that no timer is needed to start it).
    mutating func setOff(from offset: Double, at t: Double, toward rate: Double) {
        append(ScrollSegment(start: t, startOffset: offset, startRate: 0, targetRate: rate,
                             rampDuration: PrompterEngine.rampDuration))
    }

    /// The rate ramps from what it is at t to `target`, the text going on from where the
    /// ramp has it (a glide under way carries on over it, landing where it was going).
    mutating func ramp(to target: Double, at t: Double) {
        let current = timeline.segment(at: t)
        ramp(from: current.rampOffset(at: t), rate: current.rampRate(at: t), to: target, at: t)
    }

    /// The rate ramps from `rate` to `target` over `seconds`, the text going on from
    /// `offset`; a glide under way carries on over it, landing where it was going.
    mutating func ramp(from offset: Double, rate: Double, to target: Double, at t: Double,
                       over seconds: Double = PrompterEngine.rampDuration) {
        var next = timeline.continuing(at: t, offset: offset, rate: rate, targetRate: target, keepGlide: true)
        next.rampDuration = seconds
        append(next)
    }

    /// Eases to rest so that the text holds exactly where it was at t, even when t is in
    /// the recent past and the offset was read for later times; mid-jump the glide lands
    /// where it was going and the rate ramps down under it.
    ///
    /// The rate still falls linearly over `rampDuration`: the deceleration is placed so
    /// that it ends exactly at offset(t). With a steady rate r that ramp runs from
    /// t − R/2 to t + R/2 and covers r·R/2, the distance a steady run covers in R/2.
    /// In general its start s solves offset(s) + rate(s)·R/2 = offset(t), found by
    /// bisection in [t − R, t]. Consequence: read at t itself, the held timeline is
    /// r·R/8 short of the held position (2.25 px at 60 px/s) and reaches it at t + R/2.
    mutating func easeToRest(at t: Double) {
        if isGliding(at: t) { return ramp(to: 0, at: t) }
        let held = offset(at: t)
        guard let rampStart = timeline.decelerationStart(holding: held, at: t) else { return hold(held, at: t) }
        let rate = timeline.segment(at: rampStart).rate(at: rampStart)
        append(ScrollSegment(start: rampStart, startOffset: held - rate * PrompterEngine.rampDuration / 2,
                             startRate: rate, targetRate: 0, rampDuration: PrompterEngine.rampDuration))
    }

    /// Glides from where the text is at t to `position` over `seconds` (a blink would lose
    /// the reader). With `keepingRun` the rate and any ramp under way carry on under the
    /// glide, else the text lands at rest.
    mutating func glide(to position: Double, at t: Double, over seconds: Double, keepingRun: Bool) {
        var next = keepingRun ? run(from: position, at: t) : .rest(at: t, offset: position)
        next.glideDistance = offset(at: t) - position
        next.glideDuration = max(seconds, 0.01)
        append(next)
    }

    /// Puts the text at `target` (clamped to the text) at once, no glide: the rate and any
    /// ramp under way carry on from there with `keepingRun`, else it rests there.
    /// Returns where the text now is.
    mutating func seek(to target: Double, at t: Double, keepingRun: Bool) -> Double {
        let position = clamped(target)
        append(keepingRun ? run(from: position, at: t) : .rest(at: t, offset: position))
        return position
    }

    /// `target` within the text: 0 for a non-finite one, at most `maxOffset`.
    func clamped(_ target: Double) -> Double {
        min(max(target.isFinite ? target : 0, 0), maxOffset)
    }

    // MARK: Layout

    /// Sets where the end of the text reaches the reading line (negative reads as 0).
    mutating func setMaxOffset(_ value: Double) {
        maxOffset = value.isNaN ? 0 : max(0, value)
    }

    /// The content height changed: the text goes on from the offset `mapOffset` gives for
    /// where it is at t, with the same rate and what is left of any ramp, so the reading
    /// position stays on that word. Text stopped at the end stays at the new end.
    mutating func relayout(at t: Double, newMaxOffset: Double, mapOffset: (Double) -> Double) {
        let mapped = mapOffset(offset(at: t))
        setMaxOffset(newMaxOffset)
        let start = endedAtEnd ? maxOffset : min(max(mapped.isFinite ? mapped : 0, 0), maxOffset)
        // Not `append`: text stopped at its end is still there, at the new end.
        timeline.append(run(from: start, at: t))
        lapGlide = nil
    }

    // MARK: The ends

    /// Commits an end a run reached at or before t, at the time it reached it: a run in
    /// reverse is held at the top; one forward stops at the end, or with `endBehavior`
    /// loop glides back to the top and goes on at `lapRate`. Only for a running transport
    /// (a paused or stopped one has no run to end); returns what happened, for it to follow.
    mutating func commitEnd(at t: Double, lapRate: Double) -> EndOutcome {
        if runsInReverse, timeline.offset(at: t) <= 0 {
            hold(0, at: timeReachingEnd().map { min($0, t) } ?? t)
            return .heldAtTop
        }
        guard hasReachedEnd(at: t) else { return .running }
        let reached = timeReachingEnd().map { min($0, t) } ?? t
        if endBehavior == .loop, maxOffset > 0 {
            goRound(at: reached, rate: lapRate)
            loops += 1
            // A commit long after the end (nobody asked in between: a short script
            // looping through a stalled loop) needs more laps. Every lap is the same
            // stretch, so they are counted, not walked: one call deeper each, as
            // before, overflowed the stack at thousands.
            guard t > reached, hasReachedEnd(at: t), let next = timeReachingEnd(), next > reached else {
                return .wentRound
            }
            let length = next - reached
            let more = min(((t - reached) / length).rounded(.down), 1e15)
            loops += Int(more)
            goRound(at: reached + more * length, rate: lapRate)
            return .wentRound
        }
        hold(maxOffset, at: reached)
        endedAtEnd = true
        return .stoppedAtEnd
    }

    // MARK: Private

    /// A lap from the end back to the top at t: the run from rest under the glide, and
    /// the glide from a hair below the end, so the lap starts moving back at once. The
    /// end is not reached again before the glide is over (`lapGlide`).
    private mutating func goRound(at t: Double, rate: Double) {
        var back = ScrollSegment(start: t, startOffset: 0, startRate: 0, targetRate: rate,
                                 rampDuration: PrompterEngine.rampDuration)
        back.glideDistance = maxOffset - min(1e-6, maxOffset / 2)
        back.glideDuration = PrompterEngine.glideDuration
        append(back)
        lapGlide = t..<back.glideEnd
    }

    /// A stretch from `position` at t that keeps the rate and what is left of any ramp.
    private func run(from position: Double, at t: Double) -> ScrollSegment {
        let current = timeline.segment(at: t)
        return ScrollSegment(start: t, startOffset: position, startRate: current.rampRate(at: t),
                             targetRate: current.targetRate, rampDuration: max(0, current.rampEnd - t))
    }

    /// Every new motion moves the text off a committed end.
    private mutating func append(_ segment: ScrollSegment) {
        timeline.append(segment)
        endedAtEnd = false
        lapGlide = nil
    }
}
