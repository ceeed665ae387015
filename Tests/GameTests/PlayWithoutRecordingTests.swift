import Foundation
import Testing
@testable import Game

/// The consent screen's other answer: the player plays, and their attempts are not
/// recorded, so neither consent nor a camera holds Send back for them.
@Suite struct PlayWithoutRecordingTests {
    @Test func aPlayerWhoDeclinesPlaysUnrecordedOthersStillNeedConsent() throws {
        var session = try GameSession(setup: GameFixture.setup(GameFixture.settings()), catalog: GameFixture.catalog(),
                                      random: GameRandom(seed: 1), wallClock: GameFixture.wall)
        _ = try session.perform(.select(ChallengeSelection(cardID: "expressions.wink")), at: 1)
        #expect(session.sendBlockers == [.noConsent(player: "Ana"), .noCamera])
        _ = try session.perform(.playWithoutRecording(player: "Ana"), at: 1)
        #expect(session.consent.playsWithoutRecording("Ana") && !session.consent.hasAgreed("Ana"))
        #expect(!session.recordsCurrentPlayer)
        #expect(session.sendBlockers.isEmpty, "no consent and no camera needed for an unrecorded attempt")
        _ = try session.perform(.send, at: 2)
        #expect(session.attempts.last?.snapshot.recording == false)
        #expect(session.attempts.last?.media == MediaState.none)
        // Withdrawing leaves the player unasked again: Send waits.
        _ = try session.perform(.stop, at: 3)
        _ = try session.perform(.retry, at: 3)
        _ = try session.perform(.consent(player: "Ana", agreed: false), at: 4)
        #expect(session.sendBlockers == [.noConsent(player: "Ana"), .noCamera])
        #expect(throws: GameRefusal.unknownPlayer("Zed")) { try session.perform(.playWithoutRecording(player: "Zed"), at: 5) }
    }
}
