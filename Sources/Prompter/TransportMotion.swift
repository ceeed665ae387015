/// How a prompter's text moves from one moment on: its rate then, the rate the transport
/// is ramping to and the ramp's time left, after a delay (a countdown's time left, the
/// text at rest until then). In any unit of distance a second: the engine gives it in px
/// (`PrompterEngine.motion(at:)`), a lead rig publishes it in its lines. The engine's
/// ramps are linear in rate, so the next seconds are known exactly until an operator
/// changes something; a follower rig extrapolates its lead with this rather than the rate
/// of one instant, which would lag every speed change by its ramp.
public struct TransportMotion: Sendable, Equatable {
    public var rate: Double
    public var targetRate: Double
    public var rampSeconds: Double
    public var delay: Double

    public static let rest = TransportMotion(rate: 0, targetRate: 0, rampSeconds: 0)

    public init(rate: Double, targetRate: Double, rampSeconds: Double, delay: Double = 0) {
        self.rate = rate
        self.targetRate = targetRate
        self.rampSeconds = max(0, rampSeconds)
        self.delay = max(0, delay)
    }

    /// The same motion in another unit: rates times `factor`.
    public func scaled(by factor: Double) -> TransportMotion {
        TransportMotion(rate: rate * factor, targetRate: targetRate * factor, rampSeconds: rampSeconds, delay: delay)
    }

    /// The distance travelled `elapsed` seconds on.
    /// (A moment before, as a clock a millisecond apart gives, reads as the moment itself.)
    public func distance(after elapsed: Double) -> Double {
        let t = max(0, elapsed - delay)
        let ramp = min(t, rampSeconds)
        let slope = rampSeconds > 0 ? (targetRate - rate) / rampSeconds : 0
        return rate * ramp + slope * ramp * ramp / 2 + targetRate * (t - ramp)
    }

    /// The seconds left of the delay `elapsed` seconds on.
    public func startsIn(after elapsed: Double) -> Double { max(0, delay - max(0, elapsed)) }

    /// The seconds left of the ramp `elapsed` seconds on (all of it during the delay, 0
    /// once the target rate is reached).
    public func rampLeft(after elapsed: Double) -> Double {
        max(0, rampSeconds - max(0, max(0, elapsed) - delay))
    }

    /// The rate `elapsed` seconds on.
    public func rate(after elapsed: Double) -> Double {
        guard max(0, elapsed) >= delay else { return 0 }
        let t = max(0, elapsed) - delay
        guard t < rampSeconds else { return targetRate }
        return rate + (targetRate - rate) * t / rampSeconds
    }
}
