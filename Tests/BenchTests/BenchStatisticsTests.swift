import Testing
@testable import Bench
@testable import Kiosk
@testable import Stage

@Suite struct BenchStatisticsTests {
    @Test func medianOfOddCountIsTheMiddleSample() {
        #expect(BenchStatistics.median([5, 1, 3]) == 3)
    }

    @Test func medianOfEvenCountIsTheMeanOfTheMiddleTwo() {
        #expect(BenchStatistics.median([4, 1, 3, 2]) == 2.5)
    }

    @Test func statisticsOfNoSamplesAreNil() {
        #expect(BenchStatistics.median([]) == nil)
        #expect(BenchStatistics.p99([]) == nil)
        #expect(SampleSummary(samplesMs: []) == nil)
    }

    @Test func p99IsTheNearestRank() {
        // 1...200: rank ceil(0.99 * 200) = 198.
        #expect(BenchStatistics.p99((1...200).map(Double.init).shuffled()) == 198)
        // 1...100: rank 99, not the maximum.
        #expect(BenchStatistics.p99((1...100).map(Double.init).reversed()) == 99)
        // Fewer than 100 samples: the maximum.
        #expect(BenchStatistics.p99([3, 9, 1, 7]) == 9)
        #expect(BenchStatistics.p99([42]) == 42)
    }

    @Test func p99SeesOneSlowFrameInFifty() {
        let samples = Array(repeating: 1.0, count: 49) + [30]
        #expect(BenchStatistics.median(samples) == 1)
        #expect(BenchStatistics.p99(samples) == 30)
    }

    @Test func ratioIsOursOverTheirs() {
        #expect(BenchStatistics.ratio(1, to: 4) == 0.25)
        #expect(BenchStatistics.ratio(6, to: 2) == 3)
    }

    @Test func ratioWithoutAPositiveReferenceIsNil() {
        #expect(BenchStatistics.ratio(nil, to: 2) == nil)
        #expect(BenchStatistics.ratio(2, to: nil) == nil)
        #expect(BenchStatistics.ratio(2, to: 0) == nil)
        #expect(BenchStatistics.ratio(.infinity, to: 1) == nil)
    }

    @Test func measurementOfNoSamplesIsUnavailableWithTheReason() {
        #expect(BenchMeasurement(samplesMs: [], ifEmpty: "no frames") == .unavailable("no frames"))
        #expect(BenchMeasurement(samplesMs: [2, 4]).summary == SampleSummary(medianMs: 3, p99Ms: 4, samples: 2))
    }
}
