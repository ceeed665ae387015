import Foundation
import Game
import Render
import Testing
@testable import Stage

/// The participant view on the outer display against reference images: the mirrored
/// preview of a synthetic camera frame (a colour ramp, so mirroring shows), the
/// status upright, the countdown and the cue letter upright.
@Suite(.serialized) struct ParticipantViewReferenceTests {
    /// Speech that takes one second, on the manual clock.
    private final class OneSecondSpeech: GameSpeechPort {
        let clock: ManualStageClock
        init(clock: ManualStageClock) { self.clock = clock }
        func prepare(_ text: String, wordsPerMinute: Int, generation: UInt64,
                     done: @escaping (Result<Double, GameSpeechFailure>) -> Void) {
            clock.schedule(at: clock.now) { done(.success(1)) }
        }
        func play(generation: UInt64, report: @escaping (GameSpeechReport) -> Void) {
            let start = clock.now
            clock.schedule(at: start) { report(.started(time: start)) }
            clock.schedule(at: start + 1) { report(.ended(time: start + 1)) }
        }
        func cancel(generation: UInt64) {}
    }

    /// A 128x72 frame: red rising left to right, green top to bottom, as the camera sees it.
    private static func rampFrame() -> CameraFrame {
        let width = 128, height = 72
        let pool = CameraFramePool()
        let memory = pool.take(bytes: width * height * 4)
        let pixels = memory.start.bindMemory(to: UInt32.self, capacity: width * height)
        for y in 0..<height {
            for x in 0..<width { pixels[y * width + x] = UInt32(x * 2) << 16 | UInt32(y * 3) << 8 | 0x40 }
        }
        return CameraFrame(format: .xrgb, width: width, height: height, bytesPerLine: width * 4, sequence: 1,
                           timestamp: 0, memory: memory, pool: pool)
    }

    private func replay(recording: String = "off") throws -> ManualClockStage {
        var settings = RigStage.Settings(outerSize: PixelSize(width: 640, height: 360))
        settings.cameraEnabled = true
        settings.gameCatalog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/game/actions.json")
        let replay = ManualClockStage(settings: settings, innerSize: PixelSize(width: 320, height: 180), fonts: try FontLibrary())
        replay.stage.game.speech = OneSecondSpeech(clock: replay.clock)
        replay.stage.handle(.camera(CameraInput(frame: nil, message: nil, state: "streaming", live: true)))
        replay.stage.handle(.cameraFrame(Self.rampFrame()))
        let setup = replay.stage.handle(.game(["cmd": "game", "action": "setup", "players": "Ann,Bo", "mode": "visual",
                                               "cue": "1.5", "response": "3", "recording": .string(recording)]))
        #expect(setup.body["ok"]?.boolValue == true)
        return replay
    }

    /// An outer frame at `time`, its flip reported.
    private func outer(_ replay: ManualClockStage, at time: Double) throws -> Canvas {
        replay.advance(to: time)
        let canvas = try replay.canvas(.outer, at: time)
        replay.stage.handle(.framePresented(.outer, FlipStamp(time: time, sequence: UInt64(time * 60))))
        return canvas
    }

    @Test func waitingForTheHost() throws {
        let replay = try replay()
        try SceneReferenceImage.expectMatch(try outer(replay, at: 1), named: "outer-game-waiting")
    }

    /// A recorded game: until Ann has been asked, the participant display shows the
    /// waiting card and no picture at all; once she answers, the live preview.
    @Test func noPictureUntilThePlayerHasBeenAsked() throws {
        let replay = try replay(recording: "on")
        let card = try outer(replay, at: 1)
        try SceneReferenceImage.expectMatch(card, named: "outer-game-not-asked")
        // The ramp's right edge is bright red, mirrored to the display's left; the card is black there.
        #expect(card.pixels[4 * card.width + 4] & 0xffffff == 0)
        #expect(replay.stage.handle(.game(["cmd": "game", "action": "consent", "player": "Ann", "agreed": "yes"]))
            .body["ok"]?.boolValue == true)
        let live = try outer(replay, at: 1.5)
        #expect((live.pixels[4 * live.width + 4] >> 16) & 0xff > 150, "the live picture once Ann agreed")
    }

    /// From Send until the instruction is said the card's framing guidance shows; during the
    /// attempt, with a participant touchscreen, "Tap to stop" — upright, the picture mirrored.
    @Test func framingGuidanceAndTapToStop() throws {
        let replay = try replay()
        replay.stage.handle(.participantTouch(true))
        _ = try outer(replay, at: 1)
        for request: JSONValue in [["cmd": "game", "action": "select", "card": "poses.star", "rule": "not"],
                                   ["cmd": "game", "action": "send"]] {
            #expect(replay.stage.handle(.game(request)).body["ok"]?.boolValue == true)
        }
        let overlay = replay.stage.game.participantOverlay(at: 1)
        #expect(overlay.note == "Keep in view: Head to feet in frame, with room for both arms and legs spread wide")
        #expect(overlay.stopControl)
        #expect(!(overlay.status ?? "").contains("star") && !(overlay.note ?? "").contains("star"))
        try SceneReferenceImage.expectMatch(try outer(replay, at: 1 + 1.0 / 60), named: "outer-game-listen-framing")
    }

    @Test func theCueOverTheMirroredPreview() throws {
        let replay = try replay()
        _ = try outer(replay, at: 1)
        for request: JSONValue in [["cmd": "game", "action": "select", "card": "poses.star", "rule": "not"],
                                   ["cmd": "game", "action": "send"]] {
            #expect(replay.stage.handle(.game(request)).body["ok"]?.boolValue == true)
        }
        // Speech ends at 2; the next frame shows the Z and its flip starts the window.
        _ = try outer(replay, at: 1.5)
        _ = try outer(replay, at: 2 + 1.0 / 60)
        #expect(replay.stage.game.session?.phase == .response)
        try SceneReferenceImage.expectMatch(try outer(replay, at: 2.5), named: "outer-game-cue")
    }
}
