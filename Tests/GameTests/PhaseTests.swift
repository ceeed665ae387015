import Foundation
import Testing
@testable import Game

@Suite struct PhaseTests {
    @Test func aRecordedSpokenAttemptRunsEveryPhaseInOrder() throws {
        var session = try GameFixture.session()
        var rig = RigSimulator()
        try rig.run(&session, until: .review)
        #expect(rig.phases == [.preparing, .leadIn, .speech, .response, .tail, .review])
        let kinds = rig.effects.map { "\($0)".prefix(while: { $0 != "(" }) }
        #expect(kinds == ["synthesizeSpeech", "save", "startRecording", "playSpeech", "stopRecording", "save"])
        #expect(session.attempts.last?.media == .saved(file: "attempt.mp4"))
        _ = try session.perform(.judge(.pass), at: rig.now)
        #expect(session.phase == .complete)
        _ = try session.perform(.next, at: rig.now)
        #expect(session.phase == .ready)
    }

    @Test func aNonRecordingAttemptSkipsLeadInAndTail() throws {
        var session = try GameFixture.session(GameFixture.settings(recording: false))
        var rig = RigSimulator()
        try rig.run(&session, until: .review)
        #expect(rig.phases == [.preparing, .speech, .response, .review])
        #expect(!rig.effects.contains { if case .startRecording = $0 { true } else { false } })
        #expect(session.attempts.last?.media == MediaState.none)
    }

    @Test func visualSZWaitsForTheCueBetweenSpeechAndResponse() throws {
        var session = try GameFixture.session(GameFixture.settings(mode: .visual))
        var rig = RigSimulator()
        try rig.run(&session, until: .review)
        #expect(rig.phases == [.preparing, .leadIn, .speech, .cue, .response, .tail, .review])
        #expect(rig.effects.contains { if case .showCue(_, _, .s, 0.75) = $0 { true } else { false } })
        #expect(rig.effects.contains { if case .hideCue = $0 { true } else { false } })
    }

    @Test func theSpeechStartsOnlyAfterTheLeadIn() throws {
        var session = try GameFixture.session()
        _ = try session.perform(.send, at: 100)
        #expect(session.receive(.speechPrepared(generation: 1, duration: 2), at: 100.2)
            == [.startRecording(generation: 1, attempt: 1)])
        #expect(session.receive(.mediaAccepted(generation: 1, stream: .audio, upTo: 100.9), at: 100.9).isEmpty)
        #expect(session.receive(.mediaAccepted(generation: 1, stream: .video, upTo: 100.9), at: 100.9).isEmpty)
        #expect(session.phase == .leadIn)
        #expect(session.receive(.mediaAccepted(generation: 1, stream: .video, upTo: 101.0), at: 101).isEmpty)
        #expect(session.receive(.mediaAccepted(generation: 1, stream: .audio, upTo: 100.96), at: 101)
            == [.playSpeech(generation: 1)])
        #expect(session.phase == .speech)
    }

    @Test func theResponseWindowRunsFromTheEndOfSpeech() throws {
        var session = try GameFixture.session(GameFixture.settings(recording: false))
        _ = try session.perform(.send, at: 100)
        _ = session.receive(.speechPrepared(generation: 1, duration: 2), at: 100.2)
        _ = session.receive(.speechFinished(generation: 1, start: 100.3, end: 102.3), at: 102.35)
        #expect(session.phase == .response)
        #expect(session.nextDeadline == 105.3)
        #expect(session.receive(.tick, at: 105.29).isEmpty)
        #expect(session.phase == .response)
        #expect(session.receive(.tick, at: 105.3) == [.save])
        #expect(session.phase == .review)
        #expect(session.attempts[0].timing.responseStart == 102.3)
    }

    static let between: Set<HostAction> = [.select, .changeSettings, .consent, .correct, .deleteMedia]
    static let table: [(GamePhase, Set<HostAction>)] = [
        (.ready, between.union([.send, .endGame])),
        (.preparing, [.stop, .consent]), (.leadIn, [.stop, .consent]), (.speech, [.stop, .consent]),
        (.cue, [.stop, .consent]), (.response, [.stop, .consent]), (.tail, [.stop, .consent]),
        (.review, between.union([.judge])),
        (.complete, between.union([.next, .endGame])),
        (.interrupted, between.union([.retry, .endGame])),
    ]

    @Test(arguments: table)
    func eachPhaseOffersItsHostActions(phase: GamePhase, actions: Set<HostAction>) {
        #expect(HostAction.allowed(in: phase) == actions)
        #expect(HostAction.allowed(in: phase, ended: true) == [.consent, .correct, .deleteMedia])
    }

    @Test func anUnresolvedResultBlocksMovingOn() throws {
        var session = try GameFixture.session(GameFixture.settings(recording: false))
        var rig = RigSimulator()
        try rig.run(&session, until: .review)
        #expect(throws: GameRefusal.notAllowed(.next, in: .review)) { try session.perform(.next, at: rig.now) }
        #expect(throws: GameRefusal.notAllowed(.send, in: .review)) { try session.perform(.send, at: rig.now) }
        #expect(throws: GameRefusal.notAllowed(.endGame, in: .review)) { try session.perform(.endGame, at: rig.now) }
        // Preparing the next challenge while the result waits is fine.
        _ = try session.perform(.select(ChallengeSelection(cardID: "expressions.wink")), at: rig.now)
        #expect(session.pendingReview?.id == 1)
    }

    @Test func turnsRotateThroughTheRosterAfterTheirScoredChallenges() throws {
        var session = try GameFixture.session(GameFixture.settings(recording: false, perTurn: 2))
        var players: [String] = []
        for verdict in [Verdict.pass, .void, .fail, .pass, .pass, .fail, .pass, .fail] {
            var rig = RigSimulator()
            try rig.run(&session, until: .review)
            players.append(session.attempts.last?.snapshot.player ?? "?")
            _ = try session.perform(.judge(verdict), at: rig.now)
            _ = try session.perform(.next, at: rig.now)
        }
        // Ana's void gave her another go; after Cy the order wraps back to Ana.
        #expect(players == ["Ana", "Ana", "Ana", "Ben", "Ben", "Cy", "Cy", "Ana"])
        #expect(session.turn == 3)
        #expect(session.currentPlayer == "Ana")
        #expect(session.attempts.map(\.snapshot.challenge) == [1, 2, 2, 1, 2, 1, 2, 1])
    }

    @Test func endingTheGameLeavesOnlyCorrectionsAndDeletions() throws {
        var session = try GameFixture.session()
        _ = try session.perform(.endGame, at: 1)
        #expect(session.sendBlockers == [.gameEnded])
        #expect(throws: GameRefusal.gameEnded) { try session.perform(.send, at: 2) }
    }
}
