import Foundation
import Testing
@testable import Game

@Suite struct SnapshotTests {
    @Test func sendFreezesEverythingAboutTheChallenge() throws {
        var session = try GameFixture.session(GameFixture.settings(mode: .visual), rule: .host(.notSaid))
        _ = try session.perform(.select(ChallengeSelection(cardID: "hands.fingers-up",
                                                           parameters: ActionParameters(fingers: 4),
                                                           rule: .host(.notSaid))), at: 50)
        _ = try session.perform(.send, at: 100)
        let snapshot = try #require(session.attempts.last?.snapshot)
        #expect(snapshot.player == "Ana")
        #expect(snapshot.host == "Hal")
        #expect(snapshot.instruction == "Hold up four fingers on your right hand.")
        #expect(snapshot.rule == .notSaid)
        #expect(snapshot.mode == .visual)
        #expect(snapshot.cue == CueSpec(letter: .z, duration: 0.75))
        #expect(snapshot.responseDuration == 3)
        #expect(snapshot.speech == SpeechSettings(wordsPerMinute: 175))
        #expect(snapshot.recording)
        #expect(snapshot.card == CardReference(id: "hands.fingers-up", version: 1, group: .hands,
                                               text: "hold up {fingers} on {hand}",
                                               parameters: ActionParameters(fingers: 4, hand: .right)))
        #expect(snapshot.turn == 0 && snapshot.challenge == 1)
    }

    @Test func laterChangesNeverRewriteASavedAttempt() throws {
        var session = try GameFixture.session(GameFixture.settings(recording: false))
        var rig = RigSimulator()
        try rig.run(&session, until: .review)
        let frozen = try #require(session.attempts.last?.snapshot)
        _ = try session.perform(.judge(.pass), at: rig.now)
        _ = try session.perform(.next, at: rig.now)

        var settings = session.settings
        settings.responseWindow = 8
        settings.wordsPerMinute = 300
        _ = try session.perform(.changeSettings(settings), at: rig.now)
        _ = try session.perform(.select(ChallengeSelection(cardID: "expressions.wink")), at: rig.now)
        #expect(session.attempts[0].snapshot == frozen)

        // A new catalog in which the card says something else, through a restart.
        let edited = ActionCatalog(cards: session.catalog.cards.map { card in
            var card = card
            if card.id == "hands.fingers-up" {
                card.text = "raise {fingers} high on {hand}"
                card.version = 2
            }
            return card
        })
        let restored = try GameSession.restore(session.saved, catalog: edited, wallClock: GameFixture.wall).session
        #expect(restored.attempts[0].snapshot == frozen)
        #expect(restored.attempts[0].snapshot.card.version == 1)
        #expect(restored.attempts[0].snapshot.instruction == "Simon says, hold up three fingers on your right hand.")
    }

    @Test func aSettingsChangeCannotReachARunningAttempt() throws {
        var session = try GameFixture.session()
        _ = try session.perform(.send, at: 100)
        var settings = session.settings
        settings.responseWindow = 9
        #expect(throws: GameRefusal.notAllowed(.changeSettings, in: .preparing)) {
            try session.perform(.changeSettings(settings), at: 100.1)
        }
        #expect(session.activeSnapshot?.responseDuration == 3)
    }
}
