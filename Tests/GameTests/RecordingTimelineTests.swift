import Foundation
import Testing
@testable import Game

@Suite struct RecordingTimelineTests {
    @Test func theTimelineIsTheMinimumOfBothStreams() {
        var timeline = RecordingTimeline(origin: 50)
        #expect(timeline.position == nil)
        timeline.accept(.video, upTo: 51)
        #expect(timeline.position == nil, "no audio yet")
        #expect(timeline.laggingStream == .audio)
        timeline.accept(.audio, upTo: 50.5)
        #expect(timeline.position == 0.5)
        timeline.accept(.audio, upTo: 50.2)
        #expect(timeline.position == 0.5, "media never goes back")
        timeline.accept(.audio, upTo: 52)
        #expect(timeline.position == 1)
        #expect(timeline.laggingStream == .video)
        #expect(timeline.leadInComplete)
    }

    /// Picture-only recording: the picture alone is the timeline, and a sound report
    /// (there should be none) never moves it.
    @Test func aPictureOnlyTimelineFollowsThePictureAlone() {
        var timeline = RecordingTimeline(origin: 50, streams: [.video])
        timeline.accept(.audio, upTo: 53)
        #expect(timeline.position == nil)
        #expect(timeline.latestAudio == nil)
        timeline.accept(.video, upTo: 50.8)
        #expect(abs((timeline.position ?? 0) - 0.8) < 1e-9)
        #expect(timeline.leadInComplete)
        #expect(timeline.laggingStream == .video)
    }

    @Test(arguments: [MediaStream.audio, .video])
    func aStalledStreamHoldsTheLeadInAndThenInterrupts(stalled: MediaStream) throws {
        var session = try GameFixture.session()
        _ = try session.perform(.send, at: 100)
        _ = session.receive(.speechPrepared(generation: 1, duration: 2), at: 100.2)
        let moving: MediaStream = stalled == .audio ? .video : .audio
        _ = session.receive(.mediaAccepted(generation: 1, stream: stalled, upTo: 100.3), at: 100.3)
        for step in 1...20 {
            let time = 100.2 + Double(step) * 0.1
            #expect(!session.receive(.mediaAccepted(generation: 1, stream: moving, upTo: time), at: time)
                .contains(.playSpeech(generation: 1)))
        }
        #expect(session.phase == .leadIn, "progress in one stream cannot hide the other's stall")
        #expect(session.nextDeadline == 100.2 + 0.75 + 2)
        #expect(session.receive(.tick, at: 102.9).isEmpty)
        let effects = session.receive(.tick, at: 102.95)
        #expect(effects == [.cancel(generation: 1), .discardMedia(attempt: 1), .save])
        #expect(session.attempts[0].interruption == .recordingStalled(stalled))
    }

    @Test func theTailWaitsForBothStreamsToCoverOneAndAHalfSeconds() throws {
        var session = try GameFixture.session()
        var rig = RigSimulator()
        try rig.run(&session, until: .tail)
        let end = try #require(session.attempts[0].timing.responseEnd)
        #expect(session.receive(.mediaAccepted(generation: 1, stream: .audio, upTo: end + 1.6), at: end + 1.6).isEmpty)
        #expect(session.receive(.mediaAccepted(generation: 1, stream: .video, upTo: end + 1.4), at: end + 1.6).isEmpty)
        #expect(session.receive(.mediaAccepted(generation: 1, stream: .video, upTo: end + 1.5), at: end + 1.6)
            == [.stopRecording(generation: 1)])
        #expect(session.phase == .tail)
        #expect(session.nextDeadline == nil, "finalizing waits for the recorder")
        #expect(session.receive(.recordingFinalized(generation: 1, file: "a.mp4"), at: end + 1.8) == [.save])
        #expect(session.phase == .review)
    }

    @Test func aTailThatNeverArrivesIsAStall() throws {
        var session = try GameFixture.session()
        var rig = RigSimulator()
        try rig.run(&session, until: .tail)
        let end = try #require(session.attempts[0].timing.responseEnd)
        _ = session.receive(.mediaAccepted(generation: 1, stream: .audio, upTo: end + 3), at: end + 3)
        #expect(session.nextDeadline == end + 1.5 + 2)
        _ = session.receive(.tick, at: end + 3.5)
        #expect(session.attempts[0].interruption == .recordingStalled(.video))
    }

    @Test func theTwentySecondBoundIsRefusedAtSendWithTheReason() throws {
        var settings = GameFixture.settings()
        settings.wordsPerMinute = 80
        settings.responseWindow = 10
        var session = try GameFixture.session(settings, select: "balances.hand-on-head")
        // "Simon says, stand on one foot with either hand on your head": 12 words at 80 wpm = 9 s.
        let expected = 0.75 + 9 + 10 + 1.5
        #expect(session.sendBlockers == [.recordingTooLong(seconds: expected)])
        #expect(session.sendBlockers[0].description.contains("the bound is 20 s"))
        #expect(throws: GameRefusal.notReady([.recordingTooLong(seconds: expected)])) {
            try session.perform(.send, at: 1)
        }
        settings.responseWindow = 8
        _ = try session.perform(.changeSettings(settings), at: 1)
        #expect(session.sendBlockers.isEmpty)
        // Without recording there is no bound.
        settings.responseWindow = 10
        settings.recording = false
        _ = try session.perform(.changeSettings(settings), at: 1)
        #expect(session.sendBlockers.isEmpty)
    }

    @Test func preparedSpeechLongerThanEstimatedIsRefusedBeforeRecording() throws {
        var session = try GameFixture.session()
        _ = try session.perform(.send, at: 100)
        let effects = session.receive(.speechPrepared(generation: 1, duration: 16), at: 100.5)
        #expect(effects == [.cancel(generation: 1), .discardMedia(attempt: 1), .save])
        #expect(session.attempts[0].interruption == .tooLongForRecording(seconds: 0.75 + 16 + 3 + 1.5))
    }

    @Test func theLengthCountsLeadInSpeechCueWaitResponseAndTail() {
        #expect(RecordingTimeline.length(speech: 2, response: 3, visual: false) == 7.25)
        #expect(RecordingTimeline.length(speech: 2, response: 3, visual: true) == 7.75)
        #expect(RecordingTimeline.estimatedSpeech("Simon says, wink.", wordsPerMinute: 180) == 1)
    }
}
