/// A `ScrollTrack`'s short history of `ScrollSegment`s, sorted by start time and never
/// empty: each transport, speed or layout change appends a segment from its time on,
/// and history older than `PrompterEngine.historyWindow` before the newest is
/// dropped, so a pause can still be applied at a past time and the scans stay short.
struct ScrollTimeline: Sendable, Equatable {
    private var segments: [ScrollSegment] = [.rest(at: 0, offset: 0)]

    /// The newest segment.
    var last: ScrollSegment { segments[segments.count - 1] }

    /// The segment in force at t.
    func segment(at t: Double) -> ScrollSegment {
        // Segments are few (history is pruned), so a backwards scan is cheapest.
        for candidate in segments.reversed() where candidate.start <= t {
            return candidate
        }
        return segments[0]
    }

    /// The offset at t, unclamped.
    func offset(at t: Double) -> Double {
        segment(at: t).offset(at: t)
    }

    /// A new segment at t ramping from `rate` to `targetRate`; with `keepGlide` the rest
    /// of a glide under way at t carries on (its remaining distance over its remaining
    /// time), so a speed change or pause during a jump still lands on the jump's target.
    func continuing(at t: Double, offset: Double, rate: Double, targetRate: Double,
                    keepGlide: Bool) -> ScrollSegment {
        var next = ScrollSegment(start: t, startOffset: offset, startRate: rate, targetRate: targetRate,
                                 rampDuration: PrompterEngine.rampDuration)
        let current = segment(at: t)
        if keepGlide, current.isGliding(at: t) {
            next.startOffset = current.rampOffset(at: t)
            next.glideDistance = current.glide(at: t)
            next.glideDuration = current.glideEnd - t
        }
        return next
    }

    /// Replaces the timeline from the new segment's start on and prunes old history.
    mutating func append(_ segment: ScrollSegment) {
        segments.removeAll { $0.start > segment.start }
        if let last = segments.last, last.start == segment.start {
            segments.removeLast()
        }
        segments.append(segment)
        let horizon = segment.start - PrompterEngine.historyWindow
        while segments.count > 1, segments[1].start <= horizon {
            segments.removeFirst()
        }
    }

    /// Start s of a linear ramp to rest that ends exactly at `held`:
    /// φ(s) = offset(s) + rate(s)·R/2 − held = 0, with φ(t) ≥ 0. Nil when the rate at t
    /// is already zero or no bracket exists (the engine then holds with no ramp).
    func decelerationStart(holding held: Double, at t: Double) -> Double? {
        let halfRamp = PrompterEngine.rampDuration / 2
        func phi(_ s: Double) -> Double {
            let seg = segment(at: s)
            return seg.offset(at: s) + max(0, seg.rate(at: s)) * halfRamp - held
        }
        guard segment(at: t).rate(at: t) > 0 else { return nil }
        // The latest candidate at or before t with φ ≤ 0 brackets a root with t.
        let earliest = t - PrompterEngine.rampDuration
        var candidates = [earliest]
        for seg in segments where seg.start > earliest && seg.start < t {
            candidates.append(seg.start)
            if seg.rampEnd < t { candidates.append(seg.rampEnd) }
        }
        guard var low = candidates.filter({ phi($0) <= 0 }).max() else { return nil }
        var high = t
        for _ in 0..<64 where high - low > 1e-12 {
            let mid = (low + high) / 2
            if phi(mid) <= 0 { low = mid } else { high = mid }
        }
        return low
    }
}
