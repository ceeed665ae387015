import Foundation
import Game
import Render
import Testing
@testable import Stage

/// A whole Visual S/Z game, two players and two challenges each, played from the
/// console with the pointer and the keyboard only, on the manual clock.
@Suite struct GameByConsoleTests {
    @Test func aWholeVisualGamePlayedWithPointerAndKeys() throws {
        let rig = try GameRig(fonts: try FontLibrary(), innerSize: PixelSize(width: 960, height: 540))
        rig.run(for: 0.05)
        rig.click("tab:game")
        rig.click("game:new")
        rig.click(GameScreen.Setting.mode.id)
        #expect(rig.game.session?.settings.mode == .visual)
        rig.stage.console.focus(GameScreen.Setting.perTurn.id)
        rig.key(.left)
        #expect(rig.game.session?.settings.challengesPerTurn == 2)
        rig.run(for: 0.1)
        let plan: [(card: String, rule: String, verdict: String)] = [
            ("poses.star", "simon", "pass"), ("poses.statue", "not", "pass"),
            ("poses.star", "not", "fail"), ("poses.airplane", "simon", "fail"),
        ]
        for step in plan {
            rig.click("game:card:\(step.card)")
            rig.click("game:rule:\(step.rule)")
            // Send by keyboard: focus it and press Enter.
            rig.stage.console.focus("game:send")
            rig.key(.enter)
            #expect(rig.phase == "preparing", "\(rig.game.notice ?? "")")
            rig.run(for: 1.6)
            #expect(rig.phase == "response")
            rig.run(for: 3.2)
            #expect(rig.phase == "review")
            rig.click("game:verdict:\(step.verdict)")
            rig.click("game:next")
        }
        let scores = rig.game.session?.scoreboard.players.map(\.points)
        #expect(scores == [2, 0])
        #expect(rig.game.session?.turn == 2)
        // Every cue was acknowledged by the outer flip at the next vblank after its request.
        let attempts = try #require(rig.status["attempts"]?.arrayValue)
        #expect(attempts.count == 4)
        #expect(attempts.allSatisfy { $0["cue_frames_after_request"]?.numberValue == 1 })
        let letters = rig.game.session?.attempts.map { $0.snapshot.cue?.letter }
        #expect(letters == [.s, .z, .z, .s])
    }
}
