import Foundation
import Testing
@testable import Game

@Suite struct ParameterTests {
    let card = ActionCard(id: "hands.fingers-up", version: 2, group: .hands, text: "hold up {fingers} on {hand}",
                          frame: .hands, framing: "the hand", seated: true,
                          parameters: ActionParameters(fingers: 3, hand: .right))
    let plain = ActionCard(id: "expressions.wink", version: 1, group: .expressions, text: "wink",
                           frame: .face, framing: "the face", seated: true)

    @Test func defaultsFillThePlaceholders() throws {
        let values = try card.resolve(ActionParameters())
        #expect(values == ActionParameters(fingers: 3, hand: .right))
        #expect(card.instruction(values) == "hold up three fingers on your right hand")
    }

    @Test func theHostsValuesReplaceTheDefaults() throws {
        let values = try card.resolve(ActionParameters(fingers: 1, hand: .either))
        #expect(card.instruction(values) == "hold up one finger on either hand")
        let left = try card.resolve(ActionParameters(hand: .left))
        #expect(card.instruction(left) == "hold up three fingers on your left hand")
        #expect(card.instruction(try card.resolve(ActionParameters(fingers: 5))) == "hold up five fingers on your right hand")
    }

    @Test func outOfRangeOrForeignParametersAreRefused() throws {
        #expect(throws: GameRefusal.self) { try card.resolve(ActionParameters(fingers: 0)) }
        #expect(throws: GameRefusal.self) { try card.resolve(ActionParameters(fingers: 6)) }
        #expect(throws: GameRefusal.self) { try plain.resolve(ActionParameters(hand: .left)) }
        #expect(throws: GameRefusal.self) { try plain.resolve(ActionParameters(fingers: 2)) }
        #expect(try plain.resolve(ActionParameters()).isEmpty)
    }

    @Test func selectingRefusesBadParametersAndCardsOutOfPlay() throws {
        var session = try GameFixture.session(select: nil)
        #expect(throws: GameRefusal.badParameter(card: "hands.fingers-up", "the finger count must be 1 to 5, found 7")) {
            try session.perform(.select(ChallengeSelection(cardID: "hands.fingers-up",
                                                           parameters: ActionParameters(fingers: 7))), at: 1)
        }
        #expect(throws: GameRefusal.unknownCard("hands.juggle")) {
            try session.perform(.select(ChallengeSelection(cardID: "hands.juggle")), at: 1)
        }
        var settings = session.settings
        settings.groups = [.expressions]
        _ = try session.perform(.changeSettings(settings), at: 1)
        #expect(throws: GameRefusal.cardNotInPlay("hands.wave")) {
            try session.perform(.select(ChallengeSelection(cardID: "hands.wave")), at: 1)
        }
        #expect(session.selection == nil)
    }

    @Test func spokenInstructionsSaySimonSaysOnlyForTheSimonRule() throws {
        let settings = GameFixture.settings()
        let said = ChallengeSnapshot.freeze(card: card, parameters: card.parameters, rule: .simonSays, source: .host,
                                            player: "Ana", host: "Hal", settings: settings, turn: 0, challenge: 1)
        #expect(said.instruction == "Simon says, hold up three fingers on your right hand.")
        #expect(said.cue == nil)
        let notSaid = ChallengeSnapshot.freeze(card: card, parameters: card.parameters, rule: .notSaid, source: .host,
                                               player: "Ana", host: "Hal", settings: settings, turn: 0, challenge: 1)
        #expect(notSaid.instruction == "Hold up three fingers on your right hand.")
    }

    @Test func visualInstructionsNeverSaySimonSaysAndCarryTheLetter() throws {
        let settings = GameFixture.settings(mode: .visual)
        for (rule, letter) in [(ChallengeRule.simonSays, CueLetter.s), (.notSaid, .z)] {
            let snapshot = ChallengeSnapshot.freeze(card: plain, parameters: ActionParameters(), rule: rule,
                                                    source: .host, player: "Ana", host: "Hal", settings: settings,
                                                    turn: 0, challenge: 1)
            #expect(snapshot.instruction == "Wink.")
            #expect(snapshot.cue == CueSpec(letter: letter, duration: 0.75))
            #expect(letter.rule == rule)
        }
        #expect(CueLetter.s.help.contains("Do the action"))
        #expect(CueLetter.z.help.contains("Don't move"))
    }
}
