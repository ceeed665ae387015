import Media
import Testing
@testable import Kiosk

/// Recording before preview (issue 20): the preview converter's policy with made-up
/// queue fills at 30 fps.
@Suite struct PreviewPriorityTests {
    static let frame = 1.0 / 30

    @Test func withoutATakeEveryFrameConverts() {
        var priority = PreviewPriority()
        for index in 0..<90 {
            #expect(priority.decide(recorder: nil, at: Double(index) * Self.frame) == .convert)
        }
        // A take that is finishing takes no frames: nothing to give way to.
        let finishing = RecorderQueueFill(queued: 29, limit: 30, recording: false)
        #expect(priority.decide(recorder: finishing, at: 3) == .convert)
        #expect(priority.skipped == 0)
    }

    @Test func aTakeKeepingUpLeavesThePreviewAlone() {
        var priority = PreviewPriority()
        for index in 0..<90 {
            let fill = RecorderQueueFill(queued: index % 3, limit: 30)
            #expect(priority.decide(recorder: fill, at: Double(index) * Self.frame) == .convert)
        }
        #expect(!priority.yielding)
    }

    /// An encoder falling behind by one frame per camera frame: the preview gives way
    /// at a quarter of the queue, many frames before the recorder would drop (at 30).
    @Test func thePreviewGivesWayLongBeforeTheRecorderDrops() {
        var priority = PreviewPriority()
        var firstSkipAt: Int?
        for queued in 0..<30 {
            let decision = priority.decide(recorder: RecorderQueueFill(queued: queued, limit: 30),
                                           at: Double(queued) * Self.frame)
            if decision == .skip, firstSkipAt == nil { firstSkipAt = queued }
        }
        #expect(PreviewPriority.yieldMark(limit: 30) == 8)
        #expect(firstSkipAt == 8)
        // From 8 queued on only a keep-alive frame converts, 0.5 s after the last one
        // (at 22 queued): 21 of those 22 frames skipped, none by the recorder.
        #expect(priority.skipped == 21)
    }

    @Test func aDropByTheRecorderMakesThePreviewGiveWayAtOnce() {
        var priority = PreviewPriority()
        #expect(priority.decide(recorder: RecorderQueueFill(queued: 1, limit: 30), at: 0) == .convert)
        // Queue nearly empty but a frame was lost (a burst): the recorder is short.
        #expect(priority.decide(recorder: RecorderQueueFill(queued: 2, limit: 30, dropped: 1), at: Self.frame) == .skip)
        #expect(priority.yielding)
    }

    @Test func thePreviewComesBackOnlyOnceTheQueueHasDrained() {
        var priority = PreviewPriority()
        var time = 0.0
        func step(_ queued: Int) -> PreviewPriority.Decision {
            time += Self.frame
            return priority.decide(recorder: RecorderQueueFill(queued: queued, limit: 30), at: time)
        }
        _ = step(0)
        _ = step(10)
        #expect(priority.yielding)
        // Draining through the marks: still giving way above a tenth of the queue.
        for queued in [7, 5, 4] { #expect(step(queued) == .skip) }
        #expect(step(3) == .convert)
        #expect(!priority.yielding)
        #expect(step(6) == .convert)
    }

    @Test func whileGivingWayOneFrameStillConvertsEveryHalfSecond() {
        var priority = PreviewPriority()
        var converted: [Int] = []
        for index in 0..<60 {
            let fill = RecorderQueueFill(queued: 20, limit: 30)
            if priority.decide(recorder: fill, at: Double(index) * Self.frame) == .convert { converted.append(index) }
        }
        // 2 s at 30 fps: frames 0, 15, 30 and 45, so the talent's picture never freezes.
        #expect(converted == [0, 15, 30, 45])
        #expect(priority.skipped == 56)
    }

    @Test func smallQueuesStillGiveWayBeforeTheyAreFull() {
        for limit in [1, 2, 4, 8, 30, 120] {
            #expect(PreviewPriority.yieldMark(limit: limit) <= limit)
            #expect(PreviewPriority.resumeMark(limit: limit) < PreviewPriority.yieldMark(limit: limit))
        }
    }
}
