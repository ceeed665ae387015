/// How the lead rig's reading line moves from the moment of its anchor: the rate then, the
/// rate its transport is ramping to and the ramp's time left, all in lines a second as the
/// lead shows them. The engine's ramps are linear in rate, so the lead's next seconds are
/// known exactly until its operator changes something; a follower extrapolates with this
/// instead of the rate of one instant, which would lag every speed change by its ramp.
public struct LeadMotion: Sendable, Equatable {
    public var linesPerSecond: Double
    public var targetLinesPerSecond: Double
    public var rampSeconds: Double
    /// Seconds before any of it starts: a countdown's time left (the text at rest until then).
    public var delay: Double

    public init(linesPerSecond: Double, targetLinesPerSecond: Double, rampSeconds: Double, delay: Double = 0) {
        self.linesPerSecond = linesPerSecond
        self.targetLinesPerSecond = targetLinesPerSecond
        self.rampSeconds = max(0, rampSeconds)
        self.delay = max(0, delay)
    }

    /// Lines travelled `elapsed` seconds after the anchor.
    public func lines(after elapsed: Double) -> Double {
        let t = max(0, elapsed - delay)
        let ramp = min(t, rampSeconds)
        let slope = rampSeconds > 0 ? (targetLinesPerSecond - linesPerSecond) / rampSeconds : 0
        return linesPerSecond * ramp + slope * ramp * ramp / 2 + targetLinesPerSecond * (t - ramp)
    }

    /// The seconds left of the delay (a countdown's) `elapsed` seconds after the anchor.
    /// (A moment before the anchor, as a clock a millisecond apart gives, reads as the anchor's.)
    public func startsIn(after elapsed: Double) -> Double { max(0, delay - max(0, elapsed)) }

    /// The seconds left of the ramp `elapsed` seconds after the anchor (all of it during
    /// the delay, 0 once the target rate is reached).
    public func rampLeft(after elapsed: Double) -> Double {
        max(0, rampSeconds - max(0, max(0, elapsed) - delay))
    }

    /// The rate `elapsed` seconds after the anchor, in lines a second.
    public func linesPerSecond(after elapsed: Double) -> Double {
        guard max(0, elapsed) >= delay else { return 0 }
        let t = max(0, elapsed) - delay
        guard t < rampSeconds else { return targetLinesPerSecond }
        return linesPerSecond + (targetLinesPerSecond - linesPerSecond) * t / rampSeconds
    }
}
