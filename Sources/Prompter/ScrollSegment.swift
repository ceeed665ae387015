/// One stretch of the scroll timeline: from `start` the rate moves linearly from
/// `startRate` to `targetRate` over `rampDuration` seconds, then holds `targetRate`.
///
/// Ramp maths (closed form, no per-frame accumulation). With d = t − start,
/// r0 = startRate, r1 = targetRate, R = rampDuration:
///
///     rate(d)   = r0 + (r1 − r0)·d/R                 for 0 ≤ d < R
///               = r1                                 for d ≥ R
///     offset(d) = o0 + r0·d + (r1 − r0)·d²/(2R)      for 0 ≤ d < R
///               = o0 + (r0 + r1)/2·R + r1·(d − R)    for d ≥ R
///
/// The second line equals o0 + r1·d − (r1 − r0)·R/2: a ramp costs (r1 − r0)·R/2
/// pixels against an instant change. From rest (r0 = 0) at 60 px/s with R = 0.3 s,
/// ten seconds cover 600 − 60·0.15 = 591 px. A resting stretch is r0 = r1 = 0.
struct ScrollSegment: Sendable, Equatable {
    var start: Double
    var startOffset: Double
    var startRate: Double
    var targetRate: Double
    var rampDuration: Double

    static func rest(at start: Double, offset: Double) -> ScrollSegment {
        ScrollSegment(start: start, startOffset: offset, startRate: 0, targetRate: 0, rampDuration: 0)
    }

    var rampEnd: Double { start + rampDuration }

    /// Pixels per second at time t (t before `start` reads as `start`).
    func rate(at t: Double) -> Double {
        let d = t - start
        if d <= 0 { return startRate }
        if d >= rampDuration { return targetRate }
        return startRate + (targetRate - startRate) * d / rampDuration
    }

    /// Unclamped offset at time t (t before `start` reads as `start`).
    func offset(at t: Double) -> Double {
        let d = max(0, t - start)
        if d < rampDuration {
            return startOffset + startRate * d + (targetRate - startRate) * d * d / (2 * rampDuration)
        }
        return startOffset + (startRate + targetRate) / 2 * rampDuration + targetRate * (d - rampDuration)
    }

    /// The first time at which the offset reaches `goal`, or nil if it never does.
    func time(reaching goal: Double) -> Double? {
        let needed = goal - startOffset
        if needed <= 0 { return start }
        if rampDuration > 0 {
            let a = startRate
            let b = (targetRate - startRate) / rampDuration
            // Solve a·d + b·d²/2 = needed for the smallest d in [0, R].
            if let d = Self.smallestRoot(a: a, b: b, needed: needed), d <= rampDuration {
                return start + d
            }
        }
        let atRampEnd = offset(at: rampEnd)
        guard targetRate > 0 else { return nil }
        return rampEnd + (goal - atRampEnd) / targetRate
    }

    private static func smallestRoot(a: Double, b: Double, needed: Double) -> Double? {
        if abs(b) < 1e-12 {
            return a > 0 ? needed / a : nil
        }
        let discriminant = a * a + 2 * b * needed
        guard discriminant >= 0 else { return nil }
        // The root on the rising branch; both signs of b give the first crossing.
        let d = (-a + discriminant.squareRoot()) / b
        return d >= 0 ? d : nil
    }
}
