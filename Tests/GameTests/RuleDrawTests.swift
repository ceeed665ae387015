import Foundation
import Testing
@testable import Game

@Suite struct RuleDrawTests {
    @Test func theSameSeedDrawsTheSameRules() {
        var first = GameRandom(seed: 42)
        var second = GameRandom(seed: 42)
        let a = (0..<64).map { _ in first.drawRule() }
        let b = (0..<64).map { _ in second.drawRule() }
        #expect(a == b)
        var other = GameRandom(seed: 43)
        #expect((0..<64).map { _ in other.drawRule() } != a)
    }

    @Test func drawsAreRoughlyFair() {
        var random = GameRandom(seed: 2026)
        let said = (0..<2000).filter { _ in random.drawRule() == .simonSays }.count
        #expect((900...1100).contains(said))
    }

    @Test func aDrawnRuleIsRecordedAsDrawnInTheSnapshot() throws {
        var expected = GameRandom(seed: 9)
        let rule = expected.drawRule()
        var session = try GameFixture.session(seed: 9, rule: .draw)
        _ = try session.perform(.send, at: 100)
        let snapshot = try #require(session.activeSnapshot)
        #expect(snapshot.rule == rule)
        #expect(snapshot.ruleSource == .drawn)
        #expect(snapshot.instruction.hasPrefix("Simon says") == (rule == .simonSays))
        #expect(session.random == expected)
    }

    @Test func theHostsRuleIsUsedAsChosenAndDrawsNothing() throws {
        var session = try GameFixture.session(seed: 9, rule: .host(.notSaid))
        _ = try session.perform(.send, at: 100)
        #expect(session.activeSnapshot?.rule == .notSaid)
        #expect(session.activeSnapshot?.ruleSource == .host)
        #expect(session.random == GameRandom(seed: 9))
    }

    @Test func successiveDrawsInOneGameFollowTheSeed() throws {
        var expected = GameRandom(seed: 5)
        var session = try GameFixture.session(GameFixture.settings(recording: false), seed: 5, rule: .draw)
        for _ in 0..<4 {
            var rig = RigSimulator(start: 100)
            try rig.run(&session, until: .review)
            #expect(session.attempts.last?.snapshot.rule == expected.drawRule())
            _ = try session.perform(.judge(.pass), at: rig.now)
            _ = try session.perform(.next, at: rig.now)
        }
    }
}
