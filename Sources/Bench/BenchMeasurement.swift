import Kiosk
import Stage

/// Median, p99 and count of one case's samples, in milliseconds.
struct SampleSummary: Equatable, Sendable {
    var medianMs: Double
    var p99Ms: Double
    var samples: Int

    init(medianMs: Double, p99Ms: Double, samples: Int) {
        self.medianMs = medianMs
        self.p99Ms = p99Ms
        self.samples = samples
    }

    /// Nil for no samples: an empty case is reported unavailable, never as zero.
    init?(samplesMs: [Double]) {
        guard let median = BenchStatistics.median(samplesMs),
              let p99 = BenchStatistics.p99(samplesMs) else { return nil }
        self.init(medianMs: median, p99Ms: p99, samples: samplesMs.count)
    }
}

/// One figure of the report: measured, or unavailable with the reason, so a case
/// whose producer is missing shows why instead of a made-up number.
enum BenchMeasurement: Equatable, Sendable {
    case measured(SampleSummary)
    case unavailable(String)

    init(samplesMs: [Double], ifEmpty reason: String = "no samples") {
        if let summary = SampleSummary(samplesMs: samplesMs) {
            self = .measured(summary)
        } else {
            self = .unavailable(reason)
        }
    }

    var summary: SampleSummary? {
        if case let .measured(summary) = self { return summary }
        return nil
    }

    var medianMs: Double? { summary?.medianMs }
}
