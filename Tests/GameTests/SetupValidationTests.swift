import Foundation
import Testing
@testable import Game

@Suite struct SetupValidationTests {
    func fields(_ setup: GameSetup, catalog: ActionCatalog? = nil) -> [SetupField] {
        setup.problems(catalog: catalog).map(\.field)
    }

    @Test func defaultSettingsWithTwoNamedPlayersAreValid() throws {
        let setup = GameSetup(host: "Hal", players: ["Ana", "Ben"])
        #expect(setup.problems(catalog: try GameFixture.catalog()).isEmpty)
        #expect(setup.settings.responseWindow == 3)
        #expect(setup.settings.wordsPerMinute == 175)
        #expect(setup.settings.cueDuration == 0.75)
    }

    @Test func playerCountMustBeTwoToTwelve() {
        #expect(fields(GameSetup(host: "Hal", players: ["Ana"])) == [.players])
        let thirteen = (1...13).map { "P\($0)" }
        #expect(fields(GameSetup(host: "Hal", players: thirteen)) == [.players])
        #expect(fields(GameSetup(host: "Hal", players: Array(thirteen.prefix(12)))).isEmpty)
    }

    @Test func namesAreTrimmedNonEmptyAndUniqueIgnoringCase() {
        let setup = GameSetup(host: "  ", players: ["  Ana ", "   ", "ana", "Ben"])
        let problems = setup.problems()
        #expect(problems.map(\.field) == [.host, .player(1), .player(2)])
        #expect(problems[2].reason.contains("already player 1"))
        #expect(setup.normalized.players == ["Ana", "", "ana", "Ben"])
    }

    @Test func eachOutOfRangeSettingNamesItsField() {
        var settings = GameSettings()
        settings.challengesPerTurn = 0
        settings.responseWindow = 1.5
        settings.wordsPerMinute = 451
        settings.groups = []
        settings.cueDuration = 0.6
        let problems = GameSetup(host: "Hal", players: ["Ana", "Ben"], settings: settings).problems()
        #expect(problems.map(\.field) == [.challengesPerTurn, .responseWindow, .wordsPerMinute, .groups, .cueDuration])
        #expect(problems[2].reason.contains("80 to 450"))
    }

    @Test func boundariesAreInclusive() {
        var settings = GameSettings()
        for (perTurn, window, wpm) in [(1, 2.0, 80), (10, 10.0, 450)] {
            settings.challengesPerTurn = perTurn
            settings.responseWindow = window
            settings.wordsPerMinute = wpm
            #expect(settings.problems().isEmpty)
        }
        settings.challengesPerTurn = 11
        settings.responseWindow = .nan
        settings.wordsPerMinute = 79
        #expect(settings.problems().map(\.field) == [.challengesPerTurn, .responseWindow, .wordsPerMinute])
    }

    @Test func onlyTheThreeCueDurationsAreAccepted() {
        var settings = GameSettings()
        for duration in [0.5, 0.75, 1.5] {
            settings.cueDuration = duration
            #expect(settings.problems().isEmpty)
        }
        settings.cueDuration = 1.0
        #expect(settings.problems().map(\.field) == [.cueDuration])
    }

    @Test func bothModesMayBePlayedWithoutRecording() {
        var settings = GameSettings()
        settings.recording = false
        #expect(settings.problems().isEmpty)
        settings.mode = .visual
        #expect(settings.problems().isEmpty)
    }

    @Test func aSeatedFilterThatLeavesNoCardIsRefused() {
        let standing = ActionCard(id: "balances.only", version: 1, group: .balances, text: "stand on one foot",
                                  frame: .fullBody, framing: "feet", seated: false)
        let others = ActionGroup.allCases.filter { $0 != .balances }.map {
            ActionCard(id: "\($0.rawValue).x", version: 1, group: $0, text: "smile", frame: .face,
                       framing: "face", seated: true)
        }
        let catalog = ActionCatalog(cards: [standing] + others)
        var settings = GameSettings()
        settings.groups = [.balances]
        settings.seatedOnly = true
        #expect(settings.problems(catalog: catalog).map(\.field) == [.groups])
        settings.groups = [.balances, .hands]
        #expect(settings.problems(catalog: catalog).isEmpty)
    }

    @Test func aSessionRefusesAnInvalidSetupWithEveryReason() throws {
        let setup = GameSetup(host: "Hal", players: ["Ana", "ana"])
        #expect(throws: GameRefusal.invalidSettings([SetupProblem(.player(1), "\"ana\" is already player 1")])) {
            _ = try GameSession(setup: setup, catalog: try GameFixture.catalog(), random: GameRandom(seed: 1),
                                wallClock: GameFixture.wall)
        }
    }

    @Test func settingsChangesBetweenAttemptsAreValidated() throws {
        var session = try GameFixture.session()
        var bad = session.settings
        bad.responseWindow = 11
        #expect(throws: GameRefusal.self) { try session.perform(.changeSettings(bad), at: 11) }
        #expect(session.settings.responseWindow == 3)
        var good = session.settings
        good.responseWindow = 5
        #expect(try session.perform(.changeSettings(good), at: 11) == [.save])
        #expect(session.settings.responseWindow == 5)
    }
}
