import Foundation
import Game
import Render
import Testing
@testable import Kiosk
@testable import Stage

/// The host's Game screen in a headless kiosk, driven by keys and clicks like the rest
/// of the console, with reference images of the dashboard and its review.
@Suite(.serialized) struct GameConsoleTests {
    /// The Game tab, a new game, spoken play without recording (no camera here).
    private func gameScreen() throws -> ConsoleHarness {
        let rig = try ConsoleHarness()
        rig.click("tab:game")
        #expect(rig.state.screen == .game)
        #expect(rig.app.stage.game.isOpen)
        rig.click("game:new")
        #expect(rig.app.stage.game.session?.roster == ["Player 1", "Player 2"])
        return rig
    }

    @Test func theDashboardListsWhySendIsRefusedThenSendsFromTheKeyboardAndPointer() throws {
        let rig = try gameScreen()
        rig.click("game:send")
        #expect(rig.app.stage.game.notice?.contains("Select an action") == true)
        rig.click("game:card:poses.star")
        rig.click("game:rule:simon")
        #expect(rig.app.stage.game.session?.selection == ChallengeSelection(cardID: "poses.star", rule: .host(.simonSays)))
        try SceneReferenceImage.expectMatch(rig.innerCanvas(), named: "console-game-dashboard")
        // The setup value by keys: focus it, Left/Right steps it.
        rig.console.focus(GameScreen.Setting.perTurn.id)
        rig.key("Right")
        #expect(rig.app.stage.game.session?.settings.challengesPerTurn == 4)
        rig.console.focus("game:send")
        rig.key("Enter")
        // The kiosk has no sound device in tests: the attempt is void, saying why.
        rig.run { rig.app.stage.game.session?.phase == .interrupted }
        #expect(rig.app.stage.game.session?.attempts.last?.interruption == .speechFailed("there is no sound output in this kiosk"))
        rig.click("game:retry")
        #expect(rig.app.stage.game.session?.phase == .ready)
    }

    @Test func leavingTheGameTabClosesTheGame() throws {
        let rig = try gameScreen()
        rig.click("tab:prompter")
        #expect(!rig.app.stage.game.isOpen)
        #expect(rig.state.screen == .prompter)
    }
}
