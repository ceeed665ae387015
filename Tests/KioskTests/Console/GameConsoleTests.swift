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
        // The setup value by keys on the Setup page: focus it, Left/Right steps it.
        rig.click("game:page:setup")
        rig.console.focus(GameScreen.Setting.perTurn.id)
        rig.key("Right")
        #expect(rig.app.stage.game.session?.settings.challengesPerTurn == 4)
        rig.click("game:page:dashboard")
        // The kiosk has no sound device in tests: Send is refused before any attempt,
        // saying why, and the dashboard says the participant has no Stop.
        func lines(_ key: String) -> [String] {
            guard case let .array(items)? = rig.app.stage.gameDesk.status[key] else { return [] }
            return items.compactMap(\.stringValue)
        }
        #expect(lines("readiness") == ["The instruction cannot be spoken: there is no sound output in this kiosk"])
        #expect(lines("warnings").first?.hasPrefix("The participant cannot stop an attempt") == true)
        rig.console.focus("game:send")
        rig.key("Enter")
        #expect(rig.app.stage.game.session?.attempts.isEmpty == true)
        #expect(rig.app.stage.game.notice?.contains("The instruction cannot be spoken") == true)
        // With sound, the same key sends.
        rig.app.stage.game.speech = InstantGameSpeech(stage: rig.app.stage)
        rig.settle()
        rig.console.focus("game:send")
        rig.key("Enter")
        rig.run(seconds: 10) { rig.app.stage.game.session?.phase == .review }
        #expect(rig.app.stage.game.session?.attempts.count == 1)
    }

    /// The Setup page before a game: the roster and every setting with what it means,
    /// a refused value saying why.
    @Test func theSetupPage() throws {
        let rig = try ConsoleHarness()
        rig.click("tab:game")
        rig.click("game:page:setup")
        rig.click("game:player:name:0")
        for _ in 0..<"Player 1".count { rig.key("BackSpace") }
        rig.type("Ann")
        rig.click("game:player:add")
        // The host types their own name: the clips and the journal name them by it.
        rig.click(GameSetupScreen.hostNameField)
        for _ in 0..<"Host".count { rig.key("BackSpace") }
        rig.type("Dee")
        rig.click(GameScreen.Setting.mode.id)
        rig.click(GameScreen.Setting.recording.id)
        rig.console.focus(GameScreen.Setting.response.id)
        for _ in 0..<8 { rig.key("Right") }
        #expect(rig.state.gameDraft?.settings.responseWindow == 10)
        #expect(rig.app.stage.game.notice == "Invalid settings: response window: must be 2 to 10 seconds, found 11.0")
        #expect(rig.state.gameDraft?.players == ["Ann", "Player 2", "Player 3"])
        try SceneReferenceImage.expectMatch(rig.innerCanvas(), named: "console-game-setup")
        rig.click("game:start")
        #expect(rig.app.stage.game.session?.roster == ["Ann", "Player 2", "Player 3"])
        #expect(rig.app.stage.game.session?.setup.host == "Dee")
        // Recording on: the game asks consent first.
        #expect(rig.state.gamePage == .consent)
    }

    /// The Consent page: each player agrees, plays without recording, or is not asked yet.
    @Test func theConsentPage() throws {
        let rig = try ConsoleHarness()
        rig.click("tab:game")
        #expect(rig.app.stage.gameDesk.handle(["action": "setup", "players": "Ann,Bo,Cy", "recording": "on"]).body["ok"]?.boolValue == true)
        rig.settle()
        #expect(rig.state.gamePage == .consent || rig.state.gamePage == .dashboard)
        rig.click("game:page:consent")
        rig.click("game:consent:yes:Ann")
        rig.click("game:consent:norecord:Bo")
        let session = try #require(rig.app.stage.game.session)
        #expect(session.consent.hasAgreed("Ann"))
        #expect(session.consent.playsWithoutRecording("Bo"))
        #expect(!session.consent.hasAgreed("Cy") && !session.consent.playsWithoutRecording("Cy"))
        try SceneReferenceImage.expectMatch(rig.innerCanvas(), named: "console-game-consent")
        let consent = rig.app.stage.gameDesk.status["consent"]
        #expect(consent?["Ann"]?.stringValue == "agreed" && consent?["Bo"]?.stringValue == "norecord"
                && consent?["Cy"]?.stringValue == "unasked")
    }

    /// The Scoreboard destination after four judged attempts, one corrected.
    @Test func theScoreboard() throws {
        let rig = try ConsoleHarness()
        rig.app.stage.game.speech = InstantGameSpeech(stage: rig.app.stage)
        rig.click("tab:game")
        #expect(rig.app.stage.gameDesk.handle(["action": "setup", "players": "Ann,Bo", "per_turn": "2", "response": "2",
                                          "recording": "off"]).body["ok"]?.boolValue == true)
        for (card, verdict) in [("poses.star", "pass"), ("poses.statue", "fail"), ("poses.star", "fail"),
                                ("poses.airplane", "pass")] {
            #expect(rig.app.stage.gameDesk.handle(["action": "select", "card": .string(card), "rule": "simon"]).body["ok"]?.boolValue == true)
            rig.settle()
            rig.click("game:send")
            rig.run(seconds: 10) { rig.app.stage.game.session?.phase == .review }
            rig.settle()
            rig.click("game:verdict:\(verdict)")
            rig.click("game:next")
        }
        rig.click("tab:scoreboard")
        #expect(rig.state.screen == .scoreboard)
        #expect(rig.app.stage.game.isOpen)
        rig.click("game:correct:2:pass")
        #expect(rig.app.stage.game.session?.scoreboard.players.map(\.points) == [2, 1])
        try SceneReferenceImage.expectMatch(rig.innerCanvas(), named: "console-game-scoreboard")
    }

    /// Game, Scoreboard and Clips are one game's three destinations: Clips keeps the game
    /// open between attempts, waits during one (saying why), and Back returns to the game.
    @Test func clipsIsInsideTheGame() throws {
        let rig = try gameScreen()
        rig.app.stage.game.speech = InstantGameSpeech(stage: rig.app.stage)
        let session = rig.app.stage.game.sessionID
        rig.click("tab:clips")
        #expect(rig.state.screen == .clips)
        #expect(rig.app.stage.game.isOpen, "Clips between attempts keeps the game")
        rig.click("tab:scoreboard")
        #expect(rig.app.stage.game.isOpen && rig.app.stage.game.sessionID == session)
        rig.click("tab:game")
        #expect(rig.app.stage.gameDesk.handle(["action": "select", "card": "poses.star", "rule": "simon"]).body["ok"]?.boolValue == true)
        rig.settle()
        rig.click("game:send")
        #expect(rig.app.stage.game.session?.phase.isCapturing == true)
        rig.click("tab:clips")
        #expect(rig.state.screen == .game, "Clips waits while an attempt runs")
        #expect(rig.app.stage.game.notice == "Clips opens between attempts: this one is still running")
        #expect(rig.app.stage.game.session?.attempts.last?.interruption == nil, "the attempt goes on")
        rig.run(seconds: 10) { rig.app.stage.game.session?.phase == .review }
        rig.click("tab:clips")
        #expect(rig.state.screen == .clips && rig.app.stage.game.isOpen)
        // Leaving to the prompter from Clips leaves the game.
        rig.click("tab:prompter")
        #expect(!rig.app.stage.game.isOpen)
    }

    /// `rig ctl console`: the screen and where each control is, so a test can tap it.
    @Test func theConsoleRequestSaysWhereEachControlIs() throws {
        let rig = try gameScreen()
        let reply = rig.app.stage.handle(.console).body
        #expect(reply["screen"]?.stringValue == "game")
        guard case let .array(targets)? = reply["targets"] else { Issue.record("no targets: \(reply)"); return }
        let send = try #require(targets.first { $0["id"]?.stringValue == "tab:clips" })
        let target = try #require(rig.app.stage.console.targets["tab:clips"])
        #expect(send["x"]?.intValue == target.rect.x && send["width"]?.intValue == target.rect.width)
        guard case .success(.console) = ControlRequest.parse(Data(#"{"cmd":"console"}"#.utf8)) else { Issue.record("not parsed"); return }
    }

    @Test func leavingTheGameTabClosesTheGame() throws {
        let rig = try gameScreen()
        rig.click("tab:prompter")
        #expect(!rig.app.stage.game.isOpen)
        #expect(rig.state.screen == .prompter)
    }
}

/// Speech that takes 0.3 s on the kiosk's own clock, so attempts reach review without
/// a sound card.
final class InstantGameSpeech: GameSpeechPort {
    /// Unowned: the stage holds this speech (game.speech), and a strong reference back
    /// made a cycle that kept every such test's whole stage alive (LeakSanitizer, 4 MB).
    unowned let stage: RigStage
    private var live: Set<UInt64> = []
    init(stage: RigStage) { self.stage = stage }

    func prepare(_ text: String, wordsPerMinute: Int, generation: UInt64,
                 done: @escaping (Result<Double, GameSpeechFailure>) -> Void) {
        stage.schedule(stage.now()) { done(.success(0.3)) }
    }

    func play(generation: UInt64, report: @escaping (GameSpeechReport) -> Void) {
        live.insert(generation)
        let start = stage.now()
        report(.started(time: start))
        stage.schedule(start + 0.3) { [weak self] in
            if self?.live.contains(generation) == true { report(.ended(time: start + 0.3)) }
        }
    }

    func cancel(generation: UInt64) { live.remove(generation) }
}
