import Kiosk
import Stage

/// The statistics every figure in `rig bench` is reported with. The peers' scripts
/// (bench/peers/*.py) use the same definitions, so their numbers compare directly.
enum BenchStatistics {
    /// The middle sample; the mean of the two middle ones for an even count.
    static func median(_ samples: [Double]) -> Double? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// Nearest-rank 99th percentile: the smallest sample with at least 99 % of the
    /// samples at or below it. With fewer than 100 samples that is the maximum, which
    /// is the honest answer: a short run cannot say more about its tail.
    static func p99(_ samples: [Double]) -> Double? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        let rank = Int((0.99 * Double(sorted.count)).rounded(.up))
        return sorted[max(0, rank - 1)]
    }

    /// `ours / theirs`: below 1 means we are faster. Nil when either side is missing
    /// or the reference is not a positive duration (a ratio to zero means nothing).
    static func ratio(_ ours: Double?, to theirs: Double?) -> Double? {
        guard let ours, let theirs, theirs > 0, ours.isFinite, theirs.isFinite else { return nil }
        return ours / theirs
    }
}
