import Foundation
import Testing
@testable import Game

@Suite struct CueHandshakeTests {
    /// A Visual S/Z attempt driven to the moment the cue is requested (at 103.2).
    func atCue() throws -> GameSession {
        var session = try GameFixture.session(GameFixture.settings(mode: .visual), rule: .host(.notSaid))
        var rig = RigSimulator()
        try rig.run(&session, until: .cue)
        #expect(session.capture?.cue?.requestedAt == rig.now)
        return session
    }

    var requestTime: Double { 100 + 0.2 + 0.8 + 0.01 + 2 }

    @Test func theCueIsRequestedWithAUniqueIDWhenSpeechEnds() throws {
        var session = try GameFixture.session(GameFixture.settings(mode: .visual), rule: .host(.notSaid))
        var rig = RigSimulator()
        try rig.run(&session, until: .cue)
        #expect(rig.effects.last == .showCue(generation: 1, cue: 1, letter: .z, duration: 0.75))
        #expect(session.nextDeadline == requestTime + 0.5)
    }

    @Test func anOuterFlipInTimeIsTheOnsetAndStartsTheResponseWindow() throws {
        var session = try atCue()
        let flip = requestTime + 0.3
        #expect(session.receive(.cuePresented(generation: 1, cue: 1, surface: .outer, flipTime: flip, frame: 7),
                                at: flip + 0.01).isEmpty)
        #expect(session.phase == .response)
        let timing = session.attempts[0].timing
        #expect(timing.cueOnset == flip)
        #expect(timing.cueFrame == 7)
        #expect(timing.responseStart == flip)
        #expect(timing.responseEnd == flip + 3)
        #expect(abs((timing.cueOnTimeline ?? 0) - (flip - 100.2)) < 1e-9)
        // The letter goes after its duration; the window runs on.
        #expect(session.nextDeadline == flip + 0.75)
        #expect(session.receive(.tick, at: flip + 0.75) == [.hideCue(generation: 1, cue: 1)])
        #expect(session.nextDeadline == flip + 3)
        #expect(session.phase == .response)
    }

    @Test func aFlipAfterHalfASecondVoidsWithoutPenalty() throws {
        var session = try atCue()
        let flip = requestTime + 0.5
        let effects = session.receive(.cuePresented(generation: 1, cue: 1, surface: .outer, flipTime: flip, frame: 9),
                                      at: flip)
        #expect(effects == [.cancel(generation: 1), .discardMedia(attempt: 1), .save])
        #expect(session.phase == .interrupted)
        #expect(session.attempts[0].interruption == .cueNotShown)
        #expect(session.attempts[0].verdict == .void)
        #expect(session.attempts[0].verdicts.last?.by == .game)
        #expect(session.challengesPlayedThisTurn == 0)
    }

    @Test func noAcknowledgementByTheDeadlineVoidsTheAttempt() throws {
        var session = try atCue()
        #expect(session.receive(.tick, at: requestTime + 0.49).isEmpty)
        #expect(session.phase == .cue)
        _ = session.receive(.tick, at: requestTime + 0.5)
        #expect(session.phase == .interrupted)
        #expect(session.attempts[0].interruption == .cueNotShown)
    }

    @Test func aPreviewPresentationNeverAcknowledges() throws {
        var session = try atCue()
        let flip = requestTime + 0.1
        #expect(session.receive(.cuePresented(generation: 1, cue: 1, surface: .preview, flipTime: flip, frame: 3),
                                at: flip).isEmpty)
        #expect(session.phase == .cue)
        #expect(session.attempts[0].timing.cueOnset == nil)
        _ = session.receive(.tick, at: requestTime + 0.5)
        #expect(session.attempts[0].interruption == .cueNotShown)
    }

    @Test func anotherCuesIDOrAStaleGenerationChangesNothing() throws {
        var session = try atCue()
        let flip = requestTime + 0.1
        #expect(session.receive(.cuePresented(generation: 1, cue: 99, surface: .outer, flipTime: flip, frame: 3),
                                at: flip).isEmpty)
        #expect(session.receive(.cuePresented(generation: 0, cue: 1, surface: .outer, flipTime: flip, frame: 3),
                                at: flip).isEmpty)
        #expect(session.phase == .cue)
        #expect(session.attempts[0].timing.cueOnset == nil)
    }

    @Test func resultsOfAnAbandonedAttemptChangeNothingInTheRetry() throws {
        var session = try atCue()
        _ = try session.perform(.stop, at: requestTime + 0.1)
        _ = try session.perform(.retry, at: requestTime + 1)
        var rig = RigSimulator(start: 200)
        try rig.run(&session, until: .cue)
        #expect(session.activeGeneration == 2)
        let before = session.attempts
        // The first attempt's late callbacks arrive now.
        for event in [GameEvent.cuePresented(generation: 1, cue: 1, surface: .outer, flipTime: rig.now, frame: 1),
                      .speechFinished(generation: 1, start: 101, end: 103),
                      .mediaAccepted(generation: 1, stream: .video, upTo: rig.now),
                      .recordingFinalized(generation: 1, file: "old.mp4"),
                      .recordingFailed(generation: 1, reason: "late")] {
            #expect(session.receive(event, at: rig.now).isEmpty)
        }
        #expect(session.phase == .cue)
        #expect(session.attempts == before)
        #expect(session.capture?.cue?.id == 2)
    }

    @Test func theHandshakeValueAcceptsOnlyTheFirstOuterFlipInItsWindow() {
        var handshake = CueHandshake(id: 4, requestedAt: 10)
        #expect(handshake.presented(id: 4, on: .outer, flipTime: 9.99, frame: 1) == .ignored)
        #expect(handshake.presented(id: 4, on: .preview, flipTime: 10.1, frame: 2) == .ignored)
        #expect(!handshake.hasTimedOut(at: 10.49))
        #expect(handshake.presented(id: 4, on: .outer, flipTime: 10.2, frame: 3) == .acknowledged(onset: 10.2))
        #expect(handshake.presented(id: 4, on: .outer, flipTime: 10.25, frame: 4) == .ignored)
        #expect(handshake.frame == 3)
        #expect(!handshake.hasTimedOut(at: 11))
        var late = CueHandshake(id: 5, requestedAt: 10)
        #expect(late.presented(id: 5, on: .outer, flipTime: 10.5, frame: 1) == .late)
        #expect(late.hasTimedOut(at: 10.5))
    }
}
