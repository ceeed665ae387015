import Testing
@testable import Stage

@Suite struct TapLatencyHistogramTests {
    @Test func emptyHistogramHasNoFigures() {
        let summary = TapLatencyHistogram().summary
        #expect(summary.count == 0)
        #expect(summary.medianMilliseconds == nil)
        #expect(summary.description == "tap latency: no taps yet")
    }

    @Test func medianAndP99AreNearestRank() {
        var histogram = TapLatencyHistogram()
        // 1..100 ms: median 50 ms, p99 99 ms.
        for millisecond in 1...100 {
            histogram.record(tapTime: 50.0, flipTime: 50.0 + Double(millisecond) / 1000)
        }
        let summary = histogram.summary
        #expect(summary.count == 100)
        #expect(abs((summary.medianMilliseconds ?? 0) - 50) < 1e-6)
        #expect(abs((summary.p99Milliseconds ?? 0) - 99) < 1e-6)
        #expect(abs((summary.maximumMilliseconds ?? 0) - 100) < 1e-6)
    }

    @Test func samplesLandInTheirBuckets() {
        var histogram = TapLatencyHistogram()
        histogram.record(tapTime: 1.0, flipTime: 1.004)   // ≤5
        histogram.record(tapTime: 1.0, flipTime: 1.0166)  // ≤20
        histogram.record(tapTime: 0, flipTime: 0.020)     // ≤20, on the edge
        histogram.record(tapTime: 1.0, flipTime: 1.9)     // >500
        let buckets = histogram.summary.buckets
        #expect(buckets.first { $0.upToMilliseconds == 5 }?.count == 1)
        #expect(buckets.first { $0.upToMilliseconds == 20 }?.count == 2)
        #expect(buckets.last?.upToMilliseconds == nil)
        #expect(buckets.last?.count == 1)
        #expect(buckets.reduce(0) { $0 + $1.count } == 4)
        #expect(histogram.summary.description.contains("4 taps"))
    }

    @Test func flipBeforeTheTapIsDiscardedNotCounted() {
        var histogram = TapLatencyHistogram()
        histogram.record(tapTime: 2.0, flipTime: 1.99)
        #expect(histogram.summary.count == 0)
        #expect(histogram.summary.discarded == 1)
    }

    @Test func onlyTheFirstFlipShowingThePauseCounts() {
        var histogram = TapLatencyHistogram()
        histogram.outerFrameFlipped(at: 0.5, showsTapEffect: true)  // no tap pending
        histogram.tapAccepted(at: 10.000)
        histogram.outerFrameFlipped(at: 10.008, showsTapEffect: false)  // composed before the tap
        histogram.outerFrameFlipped(at: 10.025, showsTapEffect: true)
        histogram.outerFrameFlipped(at: 10.041, showsTapEffect: true)
        let summary = histogram.summary
        #expect(summary.count == 1)
        #expect(abs((summary.medianMilliseconds ?? 0) - 25) < 1e-6)
    }

    @Test func percentilesFollowTheRecentSamplesWhileBucketsKeepAll() {
        var histogram = TapLatencyHistogram()
        for _ in 0..<1024 { histogram.record(tapTime: 0, flipTime: 0.200) }
        for _ in 0..<1024 { histogram.record(tapTime: 0, flipTime: 0.010) }
        let summary = histogram.summary
        #expect(summary.count == 2048)
        #expect(abs((summary.p99Milliseconds ?? 0) - 10) < 1e-6)
        #expect(abs((summary.maximumMilliseconds ?? 0) - 200) < 1e-6)
        #expect(summary.buckets.first { $0.upToMilliseconds == 250 }?.count == 1024)
    }
}
