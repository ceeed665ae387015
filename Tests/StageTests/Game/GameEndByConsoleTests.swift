import Foundation
import Game
import Render
import Testing
@testable import Stage

/// A recording port on the manual clock: sound and picture accepted every 0.1 s while
/// an attempt records, the file finalized at once on stop; deletions noted; `held`
/// says which files a replay or export holds.
final class FakeGameRecording: GameRecordingPort {
    let clock: ManualStageClock
    weak var game: GameController?
    var held: [String: [String]] = [:]
    private(set) var deleted: [String] = []
    private var running: (generation: UInt64, attempt: Int)?

    init(clock: ManualStageClock) { self.clock = clock }

    var unavailableReason: String? { nil }

    func start(generation: UInt64, attempt: Int) {
        running = (generation, attempt)
        accept(generation)
    }

    private func accept(_ generation: UInt64) {
        guard running?.generation == generation else { return }
        for stream in [MediaStream.audio, .video] {
            game?.receive(.mediaAccepted(generation: generation, stream: stream, upTo: clock.now))
        }
        clock.schedule(at: clock.now + 0.1) { [weak self] in self?.accept(generation) }
    }

    func stop(generation: UInt64) {
        guard let running, running.generation == generation else { return }
        self.running = nil
        clock.schedule(at: clock.now) { [weak self] in
            self?.game?.receive(.recordingFinalized(generation: generation, file: "/clips/attempt-\(running.attempt).mp4"))
        }
    }

    func cancel(generation: UInt64) { if running?.generation == generation { running = nil } }
    func discard(attempt: Int) {}
    func delete(attempt: Int, file: String) { deleted.append(file) }
    func mediaInUse(_ file: String) -> [String] { held[file] ?? [] }
}

/// The end of a session on the console, headless on the manual clock: End game asks
/// whether this game's media go too (by keys and by pointer), Cancel and Escape change
/// nothing, the answer's notice says what was deleted and what a replay still holds,
/// an ended game's remaining media can be deleted later, and the socket does the same.
@Suite struct GameEndByConsoleTests {
    /// Ann and Bo, recorded, spoken; two judged attempts.
    private func twoRecordedAttempts() throws -> (GameRig, FakeGameRecording) {
        let rig = try GameRig(camera: true, fonts: try FontLibrary(), innerSize: PixelSize(width: 960, height: 540))
        let recording = FakeGameRecording(clock: rig.replay.clock)
        recording.game = rig.game
        rig.game.recording = recording
        #expect(rig.ctl("setup", ["players": "Ann,Bo", "mode": "spoken", "recording": "on", "response": "2"]).ok)
        for player in ["Ann", "Bo"] { #expect(rig.ctl("consent", ["player": player]).ok) }
        rig.stage.handle(.camera(CameraInput(frame: nil, message: nil, state: "streaming", live: true)))
        let pool = CameraFramePool()
        rig.stage.handle(.cameraFrame(CameraFrame(format: .xrgb, width: 16, height: 9, bytesPerLine: 64, sequence: 1,
                                                  timestamp: 0, memory: pool.take(bytes: 16 * 9 * 4), pool: pool)))
        rig.click("game:page:dashboard")
        for verdict in ["pass", "fail"] {
            #expect(rig.ctl("select", ["card": "poses.star", "rule": "simon"]).ok)
            let sent = rig.ctl("send")
            #expect(sent.ok, "\(sent.error ?? "")")
            rig.run(for: 8)
            #expect(rig.phase == "review")
            #expect(rig.ctl("verdict", ["verdict": verdict]).ok)
            #expect(rig.ctl("next").ok)
        }
        #expect(rig.game.mediaCount == 2)
        rig.run(for: 0.1)
        return (rig, recording)
    }

    @Test func endGameByKeysAsksAndDeletesThisGamesMedia() throws {
        let (rig, recording) = try twoRecordedAttempts()
        recording.held["/clips/attempt-2.mp4"] = ["replay"]
        rig.focusByKeys("game:end")
        rig.key(.enter)
        #expect(rig.stage.console.state.dialog == .endGame(media: 2))
        rig.drawInner(at: rig.now)
        for id in ["dialog:confirm", "dialog:keep", "dialog:cancel"] {
            #expect(rig.stage.console.targets[id] != nil, "\(id) on the dialog")
        }
        #expect(rig.stage.console.targets["game:send"] == nil, "the dashboard takes no input under the dialog")
        // Escape: nothing changes.
        rig.key(.escape)
        #expect(rig.stage.console.state.dialog == nil && rig.game.session?.ended == false)
        #expect(rig.stage.console.state.focus == "game:end")
        rig.key(.enter)
        #expect(rig.stage.console.state.dialog == .endGame(media: 2))
        // The focus starts on Cancel; Up (as Shift-Tab) walks back to "End, delete media".
        #expect(rig.stage.console.state.focus == "dialog:cancel")
        for _ in 0..<3 where rig.stage.console.state.focus != "dialog:confirm" { rig.key(.up) }
        #expect(rig.stage.console.state.focus == "dialog:confirm")
        rig.key(.enter)
        #expect(rig.stage.console.state.dialog == nil)
        #expect(rig.game.session?.ended == true)
        #expect(recording.deleted == ["/clips/attempt-1.mp4", "/clips/attempt-2.mp4"])
        #expect(rig.game.session?.attempts.map(\.media) == [.deleted, .deleted])
        #expect(rig.game.session?.scoreboard.players.map(\.points) == [1, 0], "results stay")
        #expect(rig.game.notice == "Deleted the media of 2 attempts (results and scores stay); in use now: #2 (replay), "
                + "removed as soon as that ends.", "\(rig.game.notice ?? "")")
        rig.drawInner(at: rig.now)
        #expect(rig.stage.console.targets["game:end"] == nil && rig.stage.console.targets["game:delete-media"] == nil)
    }

    @Test func endGameByPointerKeepsTheMediaThenDeletesThemLater() throws {
        let (rig, recording) = try twoRecordedAttempts()
        rig.click("game:end")
        rig.click("dialog:cancel")
        #expect(rig.stage.console.state.dialog == nil && rig.game.session?.ended == false)
        rig.click("game:end")
        rig.click("dialog:keep")
        #expect(rig.game.session?.ended == true && recording.deleted.isEmpty)
        #expect(rig.game.notice?.hasPrefix("The game has ended; its media are kept") == true)
        rig.click("game:delete-media")
        #expect(rig.stage.console.state.dialog == .deleteGameMedia(media: 2))
        rig.click("dialog:confirm")
        #expect(recording.deleted.count == 2 && rig.game.mediaCount == 0)
        #expect(rig.game.notice == "Deleted the media of 2 attempts (results and scores stay).")
    }

    @Test func theSocketEndsWithDeleteMediaAndRefusesBadValues() throws {
        let (rig, recording) = try twoRecordedAttempts()
        let bad = rig.ctl("end", ["delete_media": "perhaps"])
        #expect(!bad.ok && bad.error == "game end: delete_media must be yes or no, found perhaps")
        #expect(rig.ctl("end", ["media": "yes"]).error == "game end: unknown key media; the only key is delete_media=yes|no")
        #expect(rig.game.session?.ended == false, "refused requests change nothing")
        recording.held["/clips/attempt-1.mp4"] = ["export"]
        let reply = rig.ctl("end", ["delete_media": "yes"])
        #expect(reply.ok, "\(reply.error ?? "")")
        #expect(reply.body["media"]?["deleted"] == .array([.int(2)]))
        #expect(reply.body["media"]?["in_use"] == .array([["attempt": .int(1), "by": .array(["export"])]]))
        #expect(reply.body["game"]?["allowed"] == .array(["consent", "correct", "deleteMedia"]))
        #expect(rig.ctl("delete-media").body["media"]?["message"]
                == .string("This game has no media left to delete; its results stay."))
    }
}
