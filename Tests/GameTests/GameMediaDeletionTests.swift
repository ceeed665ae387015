import Foundation
import Testing
@testable import Game

/// "Delete this game's media" at the end of a session: every attempt that still has a
/// video loses it in one command, results, verdict histories and scores stay, and the
/// command is on offer once the game has ended (and between challenges), not mid-capture.
@Suite struct GameMediaDeletionTests {
    private func played(_ verdicts: [Verdict]) throws -> (GameSession, Double) {
        var session = try GameSession(setup: GameFixture.setup(GameFixture.settings(perTurn: 2)),
                                      catalog: GameFixture.catalog(), random: GameRandom(seed: 3),
                                      wallClock: { 0 })
        _ = session.receive(.rigChanged(GameFixture.readyRig), at: 1)
        for player in session.roster { _ = try session.perform(.consent(player: player, agreed: true), at: 1) }
        _ = try session.perform(.select(ChallengeSelection(cardID: "expressions.wink")), at: 1)
        var start = 100.0
        for verdict in verdicts {
            var rig = RigSimulator(start: start)
            try rig.run(&session, until: .review)
            _ = try session.perform(.judge(verdict), at: rig.now)
            _ = try session.perform(.next, at: rig.now)
            start = rig.now + 5
        }
        return (session, start)
    }

    @Test func afterTheEndEveryRemainingVideoGoesAndTheResultsStay() throws {
        var (session, now) = try played([.pass, .fail, .pass])
        // One video was already deleted by itself: it is not deleted twice.
        _ = try session.perform(.deleteMedia(attempt: 2), at: now)
        let scores = session.scoreboard
        let histories = session.attempts.map(\.verdicts)
        #expect(try session.perform(.endGame, at: now) == [.save])
        #expect(session.savedMedia.map(\.attempt) == [1, 3])
        let effects = try session.perform(.deleteGameMedia, at: now + 1)
        #expect(effects == [.deleteMedia(attempt: 1, file: "attempt.mp4"), .deleteMedia(attempt: 3, file: "attempt.mp4"), .save])
        #expect(session.attempts.map(\.media) == [.deleted, .deleted, .deleted])
        #expect(session.savedMedia.isEmpty)
        #expect(session.scoreboard == scores, "scores stay")
        #expect(session.attempts.map(\.verdicts) == histories, "verdict histories stay")
        // Again: nothing left, nothing refused, only the save.
        #expect(try session.perform(.deleteGameMedia, at: now + 2) == [.save])
    }

    @Test func notWhileAnAttemptCaptures() throws {
        var (session, now) = try played([.pass])
        var rig = RigSimulator(start: now)
        try rig.run(&session, until: .speech)
        #expect(throws: GameRefusal.notAllowed(.deleteMedia, in: .speech)) { try session.perform(.deleteGameMedia, at: rig.now) }
        #expect(session.savedMedia.map(\.attempt) == [1], "nothing changed")
    }

    @Test func theDeletionSurvivesARestart() throws {
        var (session, now) = try played([.pass, .pass])
        _ = try session.perform(.endGame, at: now)
        _ = try session.perform(.deleteGameMedia, at: now)
        let restored = try GameSession.restore(session.saved, catalog: GameFixture.catalog(), wallClock: { 0 })
        #expect(restored.session.ended)
        #expect(restored.session.attempts.map(\.media) == [.deleted, .deleted])
        #expect(restored.session.scoreboard.points(of: "Ana") == 2)
    }
}
