import Foundation
import Game
import Render
import Testing
@testable import Stage

/// Whole games played from the console on the manual clock, by pointer and by keys:
/// the roster set up on the Setup page, two players and two challenges each, spoken
/// and Visual S/Z, parameters picked, an earlier verdict corrected on the Scoreboard.
@Suite struct GameByConsoleTests {
    /// Setup by keys and clicks: Ann and Bo (a third added, then removed), two
    /// challenges per turn, the mode given; then Start.
    private func setUp(_ rig: GameRig, visual: Bool) {
        rig.run(for: 0.05)
        rig.click("tab:game")
        rig.click("game:page:setup")
        #expect(rig.stage.console.state.gameDraft?.players == ["Player 1", "Player 2"])
        // Rename by typing in the name's field, reached with Down alone.
        rig.focusByKeys("game:player:name:0")
        for _ in 0..<"Player 1".count { rig.key(.backspace) }
        rig.type("Bo")
        rig.click("game:player:name:1")
        for _ in 0..<"Player 2".count { rig.key(.backspace) }
        rig.type("Ann")
        rig.click("game:player:add")
        #expect(rig.stage.console.state.gameDraft?.players == ["Bo", "Ann", "Player 3"])
        rig.click("game:player:remove:2")
        // Reorder: Ann up, by keys.
        rig.focusByKeys("game:player:up:1")
        rig.key(.enter)
        #expect(rig.stage.console.state.gameDraft?.players == ["Ann", "Bo"])
        // A refused value says why and changes nothing.
        rig.click("game:player:remove:1")
        #expect(rig.game.notice == "A game needs at least 2 players")
        #expect(rig.stage.console.state.gameDraft?.players == ["Ann", "Bo"])
        rig.focusByKeys(GameScreen.Setting.perTurn.id)
        rig.key(.left)
        #expect(rig.stage.console.state.gameDraft?.settings.challengesPerTurn == 2)
        rig.key(.left)
        rig.key(.left)
        #expect(rig.game.notice == "Invalid settings: challenges per turn: must be 1 to 10, found 0", "\(rig.game.notice ?? "")")
        #expect(rig.stage.console.state.gameDraft?.settings.challengesPerTurn == 1)
        rig.key(.right)
        if visual { rig.click(GameScreen.Setting.mode.id) }
        rig.click("game:start")
        #expect(rig.game.session?.roster == ["Ann", "Bo"])
        #expect(rig.game.session?.settings.mode == (visual ? .visual : .spoken))
        #expect(rig.game.session?.settings.challengesPerTurn == 2)
        #expect(rig.stage.console.state.gamePage == .dashboard)
        rig.run(for: 0.1)
    }

    /// One challenge: the card and rule by pointer, Send and the verdict by keys.
    private func play(_ rig: GameRig, card: String, rule: String, verdict: String, visual: Bool,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        rig.click("game:group:\(card.split(separator: ".")[0])")
        rig.click("game:card:\(card)")
        rig.click("game:rule:\(rule)")
        rig.focusByKeys("game:send")
        rig.key(.enter)
        #expect(rig.phase == "preparing", "\(rig.game.notice ?? "")", sourceLocation: sourceLocation)
        rig.run(for: 1.6)
        #expect(rig.phase == "response", sourceLocation: sourceLocation)
        rig.run(for: 3.2)
        #expect(rig.phase == "review", sourceLocation: sourceLocation)
        rig.focusByKeys("game:verdict:\(verdict)")
        rig.key(.enter)
        rig.click("game:next")
    }

    @Test func aWholeVisualGamePlayedWithPointerAndKeys() throws {
        let rig = try GameRig(fonts: try FontLibrary(), innerSize: PixelSize(width: 960, height: 540))
        setUp(rig, visual: true)
        let plan: [(card: String, rule: String, verdict: String)] = [
            ("poses.star", "simon", "pass"), ("poses.statue", "not", "pass"),
            ("poses.star", "not", "fail"), ("poses.airplane", "simon", "fail"),
        ]
        for step in plan { play(rig, card: step.card, rule: step.rule, verdict: step.verdict, visual: true) }
        #expect(rig.game.session?.scoreboard.players.map(\.points) == [2, 0])
        #expect(rig.game.session?.turn == 2)
        // Every cue was acknowledged by the outer flip at the next vblank after its request.
        let attempts = try #require(rig.status["attempts"]?.arrayValue)
        #expect(attempts.count == 4)
        #expect(attempts.allSatisfy { $0["cue_frames_after_request"]?.numberValue == 1 })
        let delays = attempts.compactMap { attempt -> Double? in
            guard let onset = attempt["cue_onset"]?.numberValue, let request = attempt["cue_requested"]?.numberValue
            else { return nil }
            return onset - request
        }
        #expect(delays.count == 4 && delays.allSatisfy { $0 > 0 && $0 <= 1.0 / 60 + 1e-9 })
        print("cue request to flip (headless, 60 Hz): " + delays.map { String(format: "%.2f ms", $0 * 1000) }.joined(separator: ", "))
        let letters = rig.game.session?.attempts.map { $0.snapshot.cue?.letter }
        #expect(letters == [.s, .z, .z, .s])
    }

    @Test func aWholeSpokenGameWithParametersAndACorrection() throws {
        let rig = try GameRig(fonts: try FontLibrary(), innerSize: PixelSize(width: 960, height: 540))
        setUp(rig, visual: false)
        // Parameters on the dashboard: the hand by pointer, the finger count by keys.
        rig.click("game:group:hands")
        rig.click("game:card:hands.fingers-up")
        rig.focusByKeys("game:param:fingers")
        rig.key(.right)
        rig.key(.right)
        let fingers = try #require(rig.game.session?.selection?.parameters.fingers)
        #expect(fingers == 5)
        rig.click("game:param:hand:left")
        #expect(rig.game.session?.selection?.parameters.hand == .left)
        rig.click("game:rule:simon")
        rig.focusByKeys("game:send")
        rig.key(.enter)
        rig.run(for: 1.6)
        #expect(rig.phase == "response")
        let spoken = try #require(rig.game.session?.attempts.last?.snapshot.instruction)
        #expect(spoken.hasPrefix("Simon says, "))
        #expect(spoken.contains(ActionParameters.spokenFingers(fingers)) && spoken.contains("your left hand"), "\(spoken)")
        rig.run(for: 3.2)
        rig.click("game:verdict:pass")
        rig.click("game:next")
        for step in [("poses.statue", "not", "fail"), ("poses.star", "simon", "pass"), ("poses.airplane", "not", "fail")] {
            play(rig, card: step.0, rule: step.1, verdict: step.2, visual: false)
        }
        #expect(rig.game.session?.scoreboard.players.map(\.points) == [1, 1])
        #expect(rig.game.session?.attempts.allSatisfy { $0.snapshot.cue == nil && $0.timing.cueRequestedAt == nil } == true)
        // The Scoreboard, a destination of its own: the game stays open, and the second
        // attempt (Ann's fail) is corrected to a pass by keys.
        rig.click("tab:scoreboard")
        #expect(rig.game.isOpen)
        rig.focusByKeys("game:correct:2:pass")
        rig.key(.enter)
        #expect(rig.game.session?.scoreboard.players.map(\.points) == [2, 1])
        #expect(rig.game.session?.scoreboard.turns.map(\.points) == [2, 1])
        #expect(rig.game.session?.attempts[1].verdicts.map(\.verdict) == [.fail, .pass])
        rig.click("tab:game")
        #expect(rig.game.isOpen)
    }

    /// The dashboard's participant preview shows the cue too, from the same scene, but
    /// only an outer flip acknowledges it: with the outer display not flipping, inner
    /// frames that show the letter leave the cue unacknowledged, and at the 0.5 s limit
    /// the attempt is void. While the cue waits, the inner display skips its frames
    /// (the cue's frame has the loop to itself) unless one must be drawn.
    @Test func theInnerPreviewNeverAcknowledgesACue() throws {
        let rig = try GameRig(fonts: try FontLibrary(), innerSize: PixelSize(width: 960, height: 540))
        #expect(rig.ctl("setup", ["players": "Ann,Bo", "mode": "visual", "recording": "off"]).ok)
        rig.run(for: 0.1)
        #expect(rig.ctl("select", ["card": "poses.star", "rule": "simon"]).ok)
        #expect(rig.ctl("send").ok)
        rig.run(for: 1.5)
        #expect(rig.phase == "speech")
        rig.drawInner(at: rig.now)
        let before = yellowInPreview(rig.inner)
        // From here only the inner display draws and flips.
        let clock = rig.replay.clock
        clock.advance(to: rig.now + 0.05)
        #expect(rig.phase == "cue")
        #expect(!rig.stage.frame(.inner, at: rig.now, into: target(rig.inner, at: rig.now, mustDraw: false)).changed,
                "the inner display waits while the cue awaits its outer flip")
        for _ in 1...20 {
            clock.advance(to: rig.now + 1.0 / 60)
            let report = rig.stage.frame(.inner, at: rig.now, into: target(rig.inner, at: rig.now, mustDraw: true))
            #expect(report.changed && report.cue == nil)
            rig.stage.handle(.framePresented(.inner, FlipStamp(time: rig.now, sequence: 1)))
        }
        #expect(yellowInPreview(rig.inner) > before + 500, "the preview shows the letter")
        #expect(rig.phase == "cue")
        clock.advance(to: rig.now + 0.3)
        #expect(rig.phase == "interrupted")
        #expect(rig.game.session?.attempts.last?.interruption == .cueNotShown)
        #expect(rig.game.session?.attempts.last?.timing.cueOnset == nil)
    }

    private func target(_ canvas: Canvas, at time: Double, mustDraw: Bool) -> FrameTarget {
        FrameTarget(width: canvas.width, height: canvas.height, stride: canvas.width * 4,
                    pixels: UnsafeMutableRawPointer(canvas.pixels.baseAddress!), presentationTime: time, mustDraw: mustDraw)
    }

    /// Yellow pixels in the dashboard's right column, where the preview is.
    private func yellowInPreview(_ canvas: Canvas) -> Int {
        var count = 0
        for y in 60..<(canvas.height / 2 + 30) {
            for x in (canvas.width * 3 / 5)..<canvas.width {
                let pixel = canvas.pixels[y * canvas.width + x]
                let r = (pixel >> 16) & 0xff, g = (pixel >> 8) & 0xff, b = pixel & 0xff
                if r > 200 && g > 170 && b < 80 { count += 1 }
            }
        }
        return count
    }
}
