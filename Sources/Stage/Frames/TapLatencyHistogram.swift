/// Time from a tap's event timestamp to the flip of the first outer frame that shows
/// the paused state: the talent's felt latency. Both ends are CLOCK_MONOTONIC seconds
/// (libinput event time, DRM page-flip time). The goal is the next vblank after the
/// event plus composition time, so at 60 Hz most taps should land under ~20 ms.
package struct TapLatencyHistogram: Sendable, Equatable {
    /// Upper bucket edges in milliseconds; the last bucket holds everything slower.
    package static let bucketEdgesMilliseconds: [Double] = [5, 10, 15, 20, 25, 33, 50, 67, 100, 150, 250, 500]

    package struct Summary: Sendable, Equatable, CustomStringConvertible {
        package struct Bucket: Sendable, Equatable {
            /// nil for the last, open-ended bucket.
            package var upToMilliseconds: Double?
            package var count: Int
        }
        package var count: Int
        package var medianMilliseconds: Double?
        package var p99Milliseconds: Double?
        package var maximumMilliseconds: Double?
        package var buckets: [Bucket]
        /// Flips earlier than the tap: a wiring mistake, counted rather than hidden.
        package var discarded: Int

        package var description: String {
            guard count > 0 else { return "tap latency: no taps yet" }
            func ms(_ value: Double?) -> String {
                value.map { String(format: "%.1f ms", $0) } ?? "-"
            }
            let filled = buckets.filter { $0.count > 0 }.map { bucket in
                "\(bucket.upToMilliseconds.map { "≤\(Int($0))" } ?? ">500"): \(bucket.count)"
            }
            return "tap latency: \(count) taps, median \(ms(medianMilliseconds)), p99 \(ms(p99Milliseconds)),"
                + " max \(ms(maximumMilliseconds)) [\(filled.joined(separator: ", "))]"
        }
    }

    /// Kept for exact percentiles; older samples still count in the buckets.
    private static let keptSamples = 1024

    private var bucketCounts = [Int](repeating: 0, count: bucketEdgesMilliseconds.count + 1)
    private var recent: [Double] = []
    private var nextSlot = 0
    private var total = 0
    private var discarded = 0
    private var maximum: Double?
    private var pendingTap: Double?

    package init() {}

    package mutating func record(tapTime: Double, flipTime: Double) {
        let milliseconds = (flipTime - tapTime) * 1000
        guard milliseconds >= 0, milliseconds.isFinite else {
            discarded += 1
            return
        }
        total += 1
        maximum = max(maximum ?? milliseconds, milliseconds)
        let bucket = Self.bucketEdgesMilliseconds.firstIndex { milliseconds <= $0 } ?? Self.bucketEdgesMilliseconds.count
        bucketCounts[bucket] += 1
        if recent.count < Self.keptSamples {
            recent.append(milliseconds)
        } else {
            recent[nextSlot] = milliseconds
            nextSlot = (nextSlot + 1) % Self.keptSamples
        }
    }

    /// For wiring: note an accepted tap, then report each outer flip; the first flip of a
    /// frame showing the tap's effect closes the measurement.
    package mutating func tapAccepted(at tapTime: Double) { pendingTap = tapTime }

    package mutating func outerFrameFlipped(at flipTime: Double, showsTapEffect: Bool) {
        guard showsTapEffect, let tap = pendingTap else { return }
        pendingTap = nil
        record(tapTime: tap, flipTime: flipTime)
    }

    package var summary: Summary {
        let sorted = recent.sorted()
        func percentile(_ fraction: Double) -> Double? {
            guard !sorted.isEmpty else { return nil }
            // Nearest rank: the smallest sample with at least `fraction` of samples at or below it.
            let rank = Int((fraction * Double(sorted.count)).rounded(.up))
            return sorted[min(max(rank, 1), sorted.count) - 1]
        }
        let edges: [Double?] = Self.bucketEdgesMilliseconds.map { $0 } + [nil]
        let buckets = zip(edges, bucketCounts).map { Summary.Bucket(upToMilliseconds: $0, count: $1) }
        return Summary(count: total, medianMilliseconds: percentile(0.5), p99Milliseconds: percentile(0.99),
                       maximumMilliseconds: maximum, buckets: buckets, discarded: discarded)
    }
}
