import Foundation
import Game
import Media
import Testing
@testable import Kiosk
@testable import Stage

/// "Delete this game's media" at the end of a session, on the manual clock with the
/// real recorder and port: the clips' MP4s and derived exports go, their JSON stays
/// with the results, and a clip a replay holds is removed only once the replay lets
/// go (a second after, when the port looks again), never under it.
@Suite(.serialized) struct GameMediaDeletionTests {
    /// Two recorded, judged attempts, their derived exports made.
    private func twoJudgedAttempts() throws -> (GameRecordingHarness, [String]) {
        let h = try GameRecordingHarness(response: 2)
        try h.game.perform(.consent(player: "Bo", agreed: true))
        var files: [String] = []
        for verdict in [Verdict.pass, .fail] {
            if h.phase == .complete { try h.game.perform(.next) }
            try h.game.perform(.select(ChallengeSelection(cardID: "poses.star", rule: .host(.simonSays))))
            try h.send()
            h.play(upTo: 12) { h.phase == .review || h.phase == .interrupted }
            h.settle { h.phase == .review }
            guard case .saved(let file)? = h.attempt?.media else {
                Issue.record("no media: \(String(describing: h.attempt))")
                return (h, files)
            }
            try h.game.perform(.judge(verdict))
            h.settle { (try? h.metadata(file))?.export?.state == .ready }
            files.append(file)
        }
        return (h, files)
    }

    private func derived(_ file: String) -> String { String(file.dropLast(4)) + ".narrated.mp4" }

    @Test func endingWithDeleteRemovesEveryClipsMediaAndKeepsTheResults() throws {
        let (h, files) = try twoJudgedAttempts()
        try #require(files.count == 2)
        for file in files {
            #expect(FileManager.default.fileExists(atPath: file) && FileManager.default.fileExists(atPath: derived(file)))
        }
        let deletion = try #require(try h.game.endGame(deletingMedia: true))
        #expect(deletion.deleted == [1, 2] && deletion.inUse.isEmpty)
        #expect(deletion.description == "Deleted the media of 2 attempts (results and scores stay).")
        #expect(h.files().filter { $0.hasSuffix(".mp4") }.isEmpty, "\(h.files())")
        #expect(h.files().filter { $0.hasSuffix(".json") }.count == 2, "the metadata stays: \(h.files())")
        #expect(try h.metadata(files[0]).annotations["verdict"] == "pass")
        #expect(try h.metadata(files[1]).annotations["verdict"] == "fail")
        #expect(try files.allSatisfy { try h.metadata($0).annotations["media"] == "deleted" })
        #expect(h.game.session?.ended == true && h.game.session?.scoreboard.points(of: "Ann") == 1)
        // The clips are listed still, without video.
        let clips = ClipFolder.clips(in: h.rig.folder)
        #expect(clips.count == 2 && clips.allSatisfy { !$0.hasMedia && $0.mediaDeleted })
    }

    @Test func aClipBeingReplayedIsRemovedOnlyWhenTheReplayLetsGo() throws {
        let (h, files) = try twoJudgedAttempts()
        try #require(files.count == 2)
        let replay = h.rig.service.stored.leases.acquire(files[0], for: "replay")
        let deletion = try #require(try h.game.endGame(deletingMedia: true))
        #expect(deletion.deleted == [2])
        #expect(deletion.inUse == [GameMediaDeletion.InUse(attempt: 1, users: ["replay"])])
        #expect(deletion.description.contains("in use now: #1 (replay), removed as soon as that ends"))
        // Attempt 2 went at once; attempt 1's video plays on, its derived export went.
        #expect(!FileManager.default.fileExists(atPath: files[1]))
        #expect(FileManager.default.fileExists(atPath: files[0]))
        #expect(!FileManager.default.fileExists(atPath: derived(files[0])))
        #expect(h.game.session?.attempts.first?.media == .deleted, "the game already counts it deleted")
        // Seconds of replay later: still there, the port keeps looking.
        for _ in 0..<5 {
            h.rig.clock.now += 1
            h.rig.runDueTimers()
        }
        #expect(FileManager.default.fileExists(atPath: files[0]))
        h.rig.service.stored.leases.release(replay)
        h.rig.clock.now += 1
        h.rig.runDueTimers()
        #expect(!FileManager.default.fileExists(atPath: files[0]), "gone the second after the replay let go")
        #expect(try h.metadata(files[0]).annotations["verdict"] == "pass")
    }

    @Test func aDeletionCutShortByAStopIsFinishedAtTheNextStart() throws {
        let (h, files) = try twoJudgedAttempts()
        try #require(files.count == 2)
        let export = h.rig.service.stored.leases.acquire(files[1], for: "export")
        try h.game.endGame(deletingMedia: true)
        #expect(FileManager.default.fileExists(atPath: files[1]))
        MetadataWriter.shared.flush()
        // The kiosk stopped with the export still copying: its lease is gone with it.
        h.rig.service.stored.leases.release(export)
        h.rig.service.stored.applyRetention(now: Date())
        #expect(!FileManager.default.fileExists(atPath: files[1]), "removed at start, as its JSON asks")
        #expect(h.files().filter { $0.hasSuffix(".json") }.count == 2)
    }

    @Test func endingAndKeepingLeavesTheFilesAndDeleteMediaLaterTakesThem() throws {
        let (h, files) = try twoJudgedAttempts()
        try #require(files.count == 2)
        #expect(try h.game.endGame(deletingMedia: false) == nil)
        #expect(files.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        #expect(throws: GameControlError.refused(.gameEnded)) { try h.game.endGame(deletingMedia: true) }
        #expect(try h.game.deleteGameMedia().deleted == [1, 2])
        #expect(h.files().filter { $0.hasSuffix(".mp4") }.isEmpty)
    }
}
