import Foundation
import Glibc
import Render
import Testing
@testable import Kiosk
@testable import Stage

/// Voice follow's console line changes as its recogniser comes up on the kiosk's
/// listening port (the model built on a worker thread), and goes when follow is off.
@Suite struct VoiceFollowShownTests {
    @Test func theLineIsStartingThenWaitingAndGoesWhenFollowStops() throws {
        let loop = try EventLoop()
        let replay = ManualClockStage(settings: RigStage.Settings(outerSize: PixelSize(width: 480, height: 270)),
                                 innerSize: PixelSize(width: 480, height: 270), fonts: nil)
        replay.open(id: "a.txt", title: "a", text: "Good evening and thank you for joining us tonight.")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-follow-shown-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let listening = KioskListening(loop: loop, folder: folder)
        let stage = replay.stage
        listening.ready = { stage.handle(.followListening($0)) }
        listening.heard = { stage.handle(.followHeard($0)) }
        stage.follow.listening = listening
        var handed: [FollowShown?] = []
        stage.follow.shownChanged = { handed.append(stage.follow.shown) }

        #expect(stage.handle(.follow(true)).body["ok"] == true)
        #expect(stage.follow.shown?.mode == "starting")
        // The model is built on a worker thread; then the line says "waiting".
        let deadline = MonotonicTime.now() + 20
        while MonotonicTime.now() < deadline, stage.follow.shown?.mode != "waiting" { loop.runOnce(timeout: 0.1) }
        let shown = try #require(stage.follow.shown, "nothing shown: \(handed)")
        #expect(shown.mode == "waiting")
        #expect(shown.confidence == 0)
        #expect(shown.heard.isEmpty)
        #expect(stage.status(at: 0)["follow"]?["listening"] == true)
        // Only changes are handed on: no repeats of the same line.
        #expect(zip(handed, handed.dropFirst()).allSatisfy { $0 != $1 }, "\(handed)")

        #expect(stage.handle(.follow(false)).body["ok"] == true)
        #expect(stage.follow.shown == nil && handed.last.map { $0 == nil } == true, "stop did not hand on nil: \(handed)")
    }
}
