import Foundation
import Glibc
import Render
import Stage
import Testing
@testable import Kiosk

/// Voice follow hands the console's line to the stage when it changes, and nil when off.
@Suite struct VoiceFollowShownTests {
    @Test func theLineIsHandedOnWhenFollowStartsAndNilWhenItStops() throws {
        let loop = try EventLoop()
        let replay = StageReplay(settings: RigStage.Settings(outerSize: PixelSize(width: 480, height: 270)),
                                 innerSize: PixelSize(width: 480, height: 270), fonts: nil)
        replay.open(id: "a.txt", title: "a", text: "Good evening and thank you for joining us tonight.")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-follow-shown-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let follow = VoiceFollow(loop: loop, controller: replay.controller, folder: folder)
        var handed: [FollowShown?] = []
        follow.shownChanged = { handed.append($0) }

        #expect(follow.start(language: "en") == nil)
        // The model is built on a worker thread; the loop's tick then says "waiting".
        let deadline = MonotonicTime.now() + 20
        while MonotonicTime.now() < deadline, handed.last??.mode != "waiting" { loop.runOnce(timeout: 0.1) }
        let shown = try #require(handed.last ?? nil, "nothing handed on: \(handed)")
        #expect(shown.mode == "waiting")
        #expect(shown.confidence == 0)
        #expect(shown.heard.isEmpty)
        // Only changes are handed on: no repeats of the same line.
        #expect(zip(handed, handed.dropFirst()).allSatisfy { $0 != $1 }, "\(handed)")

        follow.stop()
        #expect(handed.last.map { $0 == nil } == true, "stop did not hand on nil: \(handed)")
    }
}
