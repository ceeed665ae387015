import Foundation
import Testing
@testable import Game

@Suite struct VerdictScoringTests {
    /// Plays `count` recorded attempts, judging each with `verdicts[i]`.
    func played(_ verdicts: [Verdict], perTurn: Int = 2, wall: TestWallClock = TestWallClock()) throws -> GameSession {
        var session = try GameSession(setup: GameFixture.setup(GameFixture.settings(perTurn: perTurn)),
                                      catalog: GameFixture.catalog(), random: GameRandom(seed: 3),
                                      wallClock: { wall.now() })
        _ = session.receive(.rigChanged(GameFixture.readyRig), at: 1)
        for player in session.roster { _ = try session.perform(.consent(player: player, agreed: true), at: 1) }
        _ = try session.perform(.select(ChallengeSelection(cardID: "expressions.wink")), at: 1)
        var start = 100.0
        for verdict in verdicts {
            var rig = RigSimulator(start: start)
            try rig.run(&session, until: .review)
            wall.advance(10)
            _ = try session.perform(.judge(verdict), at: rig.now)
            _ = try session.perform(.next, at: rig.now)
            start = rig.now + 5
        }
        return session
    }

    @Test func theScoreboardCountsPassesPerPlayerAndTurn() throws {
        let session = try played([.pass, .pass, .fail, .pass, .void, .pass, .fail])
        let board = session.scoreboard
        #expect(board.players.map(\.player) == ["Ana", "Ben", "Cy"])
        #expect(board.players.map(\.points) == [2, 1, 1])
        #expect(board.players.map(\.scored) == [2, 2, 2])
        #expect(board.players.map(\.voided) == [0, 0, 1])
        #expect(board.turns.map(\.turn) == [0, 1, 2])
        #expect(board.turns.map(\.player) == ["Ana", "Ben", "Cy"])
        #expect(board.turns.map(\.points) == [2, 1, 1])
    }

    @Test func aCorrectionReplacesTheEffectInsteadOfAddingAPoint() throws {
        let wall = TestWallClock()
        var session = try played([.fail, .pass], wall: wall)
        #expect(session.scoreboard.points(of: "Ana") == 1)
        wall.advance(60)
        _ = try session.perform(.correct(attempt: 1, .pass), at: 500)
        #expect(session.scoreboard.points(of: "Ana") == 2)
        _ = try session.perform(.correct(attempt: 1, .pass), at: 501)
        #expect(session.scoreboard.points(of: "Ana") == 2, "the same verdict twice is still one point")
        let history = session.attempts[0].verdicts
        #expect(history.map(\.verdict) == [.fail, .pass, .pass])
        #expect(history.map(\.by) == [.host, .host, .host])
        #expect(history[1].at > history[0].at)
    }

    @Test func aVoidCountsNothing() throws {
        var session = try played([.pass, .pass])
        _ = try session.perform(.correct(attempt: 2, .void), at: 500)
        #expect(session.scoreboard.points(of: "Ana") == 1)
        #expect(session.scoreboard.players[0].scored == 1)
        #expect(session.scoreboard.players[0].voided == 1)
        // The turn already moved on: a correction changes the score, not who plays.
        #expect(session.currentPlayer == "Ben")
    }

    @Test func deletingTheVideoKeepsTheResult() throws {
        var session = try played([.pass])
        #expect(try session.perform(.deleteMedia(attempt: 1), at: 500)
            == [.deleteMedia(attempt: 1, file: "attempt.mp4"), .save])
        #expect(session.attempts[0].media == .deleted)
        #expect(session.attempts[0].verdict == .pass)
        #expect(session.scoreboard.points(of: "Ana") == 1)
        #expect(throws: GameRefusal.noMedia(attempt: 1)) { try session.perform(.deleteMedia(attempt: 1), at: 501) }
    }

    @Test func onlyHostVerdictsCanBeCorrected() throws {
        var session = try GameFixture.session()
        var rig = RigSimulator()
        try rig.run(&session, until: .review)
        #expect(throws: GameRefusal.notCorrectable(attempt: 1)) {
            try session.perform(.correct(attempt: 1, .pass), at: rig.now)
        }
        #expect(throws: GameRefusal.unknownAttempt(9)) { try session.perform(.correct(attempt: 9, .pass), at: rig.now) }
        _ = try session.perform(.judge(.pass), at: rig.now)
        _ = try session.perform(.next, at: rig.now)
        _ = try session.perform(.send, at: rig.now + 1)
        _ = try session.perform(.stop, at: rig.now + 2)
        #expect(throws: GameRefusal.notCorrectable(attempt: 2)) {
            try session.perform(.correct(attempt: 2, .pass), at: rig.now + 3)
        }
    }
}
