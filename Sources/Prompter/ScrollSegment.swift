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
///
/// A jump (to a marker, to the start) adds a *glide* on top: a displacement
/// g(d) = glideDistance·(1 − ease(d/G)) with ease(u) = 3u² − 2u³ over G =
/// `glideDuration` seconds. It starts at the distance from the jump's target back to
/// where the text was, so the offset is continuous at the jump, and fades to 0, so after
/// G the segment is its plain ramp from the target: a jump keeps the rate and any ramp
/// under way (playing goes on playing), and never shows a blink. ease' is 0 at both
/// ends, so the glide starts and lands without a jolt.
struct ScrollSegment: Sendable, Equatable {
    var start: Double
    var startOffset: Double
    var startRate: Double
    var targetRate: Double
    var rampDuration: Double
    /// Where the text was relative to `startOffset` when the glide began (0: no glide).
    var glideDistance = 0.0
    var glideDuration = 0.0

    static func rest(at start: Double, offset: Double) -> ScrollSegment {
        ScrollSegment(start: start, startOffset: offset, startRate: 0, targetRate: 0, rampDuration: 0)
    }

    /// The same motion upside down (offsets and rates negated): when a run in reverse
    /// reaches an offset is when this one reaches its negative.
    var mirrored: ScrollSegment {
        ScrollSegment(start: start, startOffset: -startOffset, startRate: -startRate, targetRate: -targetRate,
                      rampDuration: rampDuration, glideDistance: -glideDistance, glideDuration: glideDuration)
    }

    var rampEnd: Double { start + rampDuration }
    var glideEnd: Double { start + (glideDistance == 0 ? 0 : glideDuration) }

    func isGliding(at t: Double) -> Bool { t < glideEnd }

    /// The glide's displacement at t: the part of the offset still to be covered.
    func glide(at t: Double) -> Double {
        guard glideDistance != 0, glideDuration > 0 else { return 0 }
        let u = min(max((t - start) / glideDuration, 0), 1)
        return glideDistance * (1 - u * u * (3 - 2 * u))
    }

    private func glideRate(at t: Double) -> Double {
        guard glideDistance != 0, glideDuration > 0 else { return 0 }
        let u = (t - start) / glideDuration
        guard u > 0, u < 1 else { return 0 }
        return -glideDistance * 6 * u * (1 - u) / glideDuration
    }

    /// Pixels per second at time t, glide included (t before `start` reads as `start`).
    func rate(at t: Double) -> Double {
        rampRate(at: t) + glideRate(at: t)
    }

    /// Unclamped offset at time t, glide included (t before `start` reads as `start`).
    func offset(at t: Double) -> Double {
        rampOffset(at: t) + glide(at: t)
    }

    /// The rate of the ramp alone: what the transport does under a glide.
    func rampRate(at t: Double) -> Double {
        let d = t - start
        if d <= 0 { return startRate }
        if d >= rampDuration { return targetRate }
        return startRate + (targetRate - startRate) * d / rampDuration
    }

    /// The offset of the ramp alone: where the text would be with no glide.
    func rampOffset(at t: Double) -> Double {
        let d = max(0, t - start)
        if d < rampDuration {
            return startOffset + startRate * d + (targetRate - startRate) * d * d / (2 * rampDuration)
        }
        return startOffset + (startRate + targetRate) / 2 * rampDuration + targetRate * (d - rampDuration)
    }

    /// The first time at which the offset reaches `goal`, or nil if it never does.
    func time(reaching goal: Double) -> Double? {
        if isGliding(at: start) {
            // Bisection over the glide (at most G long) when the goal lies within it.
            let end = glideEnd
            if offset(at: start) >= goal { return start }
            if offset(at: end) >= goal {
                var low = start, high = end
                for _ in 0..<60 where high - low > 1e-9 {
                    let mid = (low + high) / 2
                    if offset(at: mid) >= goal { high = mid } else { low = mid }
                }
                return high
            }
            guard let plain = rampTime(reaching: goal) else { return nil }
            return max(plain, end)
        }
        return rampTime(reaching: goal)
    }

    private func rampTime(reaching goal: Double) -> Double? {
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
        let atRampEnd = rampOffset(at: rampEnd)
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
