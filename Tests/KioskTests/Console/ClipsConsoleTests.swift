import Foundation
import Render
import Testing
@testable import Kiosk
@testable import Stage

/// The Clips screen end to end on the headless kiosk with a manual clock: the list
/// the kiosk hands in, a replay drawn from decoded frames on the inner display (and
/// leased while it plays), delete after confirmation, export to a folder.
@Suite(.serialized) struct ClipsConsoleTests {
    static let newest = "game-20261201-093000-3"
    static let secondTake = "prompter-20261201-091000-2"
    static let firstTake = "prompter-20261201-081500-1"

    @Test func listsEveryClipNewestFirstWithItsDetails() throws {
        let rig = try ClipsHarness()
        rig.click("tab:clips")
        #expect(rig.stage.console.state.screen == .clips)
        #expect(rig.clipRows == [Self.newest, Self.secondTake, Self.firstTake])
        #expect(rig.stage.console.state.selectedClip == Self.newest)
        let takes = rig.stage.clips.listing.clips.filter { $0.kind == "prompter" }
        #expect(takes.map(\.title) == ["Intro, second take", "Intro"])
        let attempt = try #require(rig.stage.clips.listing.clips.first)
        #expect(attempt.player == "Ana" && attempt.card == "Touch your nose" && attempt.verdict == "pass")
        #expect(abs((attempt.duration ?? 0) - 1.5) < 0.1)
        // No game is open: the Current game list is empty, and says so.
        rig.key("Left")
        #expect(rig.stage.console.state.clipList == .currentGame && rig.clipRows.isEmpty)
        rig.click("clips:list:all")
        rig.key("Down")
        #expect(rig.stage.console.state.selectedClip == Self.secondTake)
        try SceneReferenceImage.expectMatch(rig.innerCanvas(), named: "console-clips")
    }

    /// "Current game" is the open game's session: a new game, with the previous game's
    /// attempt still on disk, lists nothing there until it records its own.
    @Test func aNewGamesCurrentListHoldsNoneOfThePreviousGamesClips() throws {
        let rig = try ClipsHarness()
        let previous = try #require(rig.stage.clips.listing.clips.first { $0.kind == "game" }?.game)
        #expect(rig.app.stage.handle(.game(["cmd": "game", "action": "setup", "players": "Bo,Cy"])).body["ok"]?.boolValue == true)
        #expect(rig.app.stage.game.sessionID != previous)
        rig.click("tab:clips")
        #expect(rig.stage.clips.listing.currentGame == rig.app.stage.game.sessionID)
        #expect(rig.stage.clips.listing.currentGameClips.isEmpty)
        #expect(rig.stage.clips.listing.clips.contains { $0.game == previous })
    }

    @Test func replayDrawsTheDecodedFrameDueAtEachTimeAndHoldsALease() throws {
        let rig = try ClipsHarness()
        rig.click("tab:clips")
        rig.key("Down")
        let clip = try #require(ClipFolder.clip(folder: rig.folder, id: Self.secondTake))
        rig.key("Enter", settle: false)
        let replay = try #require(rig.stage.clips.replay)
        #expect(replay.id == Self.secondTake)
        #expect(rig.app.recording?.stored.leases.purposes(of: clip.mediaPath) == ["replay"])
        #expect(rig.app.stage.status(at: rig.clock.now())["clips"]?["replay"]?["id"]?.stringValue == Self.secondTake)
        // A leased clip is not deleted, from the console's kiosk or by `rig ctl`.
        let refused = rig.app.stage.handle(.clips(action: "delete", id: Self.secondTake, to: nil))
        #expect(refused.body["ok"]?.boolValue == false)
        #expect(refused.body["error"]?.stringValue?.contains("replay") == true, "\(refused.body)")
        #expect(FileManager.default.fileExists(atPath: clip.mediaPath))
        rig.key("F", text: "f", settle: false)
        // The decoder's first half second arrives (its own thread; the clock stands still).
        rig.waitForThreads { (rig.stage.clips.replay?.pictures.newestTime ?? 0) >= 0.45 }
        // 0.3 s of 60 Hz frames: each shows the frame due at its time.
        var seen: [Int?] = []
        for step in 1...18 {
            rig.loop.advance(to: Double(step) / 60 + replayStart(rig))
            rig.waitForThreads { (rig.stage.clips.replay?.pictures.newestTime ?? 0) >= min(1.4, rig.stage.clips.replay?.clock.position(at: rig.clock.now()) ?? 0) }
            seen.append(rig.frameShown(x: 480, y: 240))
        }
        // Frame k is due at k/30 s; the display composes for its next vblank, so the
        // frame shown at step s (s/60 s) is the picture due then, give or take one.
        for (offset, index) in seen.enumerated() {
            let due = Double(offset + 1) / 60 * 30
            let shown = try #require(index, "step \(offset + 1) showed no picture of the clip")
            #expect(Double(shown) >= due - 1.01 && Double(shown) <= due + 1.01, "step \(offset + 1) showed frame \(shown)")
        }
        #expect(seen.compactMap { $0 } == seen.compactMap { $0 }.sorted(), "frames went backwards: \(seen)")
        // Paused: the picture stays; the bright corner is top-left (not mirrored).
        rig.key("Space", text: " ")
        let paused = try #require(rig.stage.clips.replay)
        #expect(!paused.clock.isPlaying(at: rig.clock.now()))
        let index = try #require(rig.frameShown(x: 480, y: 240))
        let position = paused.clock.position(at: rig.clock.now())
        #expect(abs(Double(index) - position * 30) <= 1.01, "paused at \(position) s shows frame \(index)")
        rig.loop.advance(by: 1)
        rig.settle()
        #expect(rig.frameShown(x: 480, y: 240) == index, "a paused replay keeps its picture")
        let screen = try #require(rig.headless?.screen(.inner))
        // The picture's left and right edges on a row through the bright square.
        let row = 20
        let left = try #require((0..<960).first { screen.pixel(x: $0, y: row) != 0 })
        let right = try #require((0..<960).last { screen.pixel(x: $0, y: row) != 0 })
        #expect(screen.pixel(x: left + 10, y: row) & 0xff > 200, "the recorded top-left square is not at the left")
        #expect(screen.pixel(x: right - 10, y: row) & 0xff < 200, "the bright square shows at the right: mirrored")
        // The outer display never shows the replay: hardly any of its pixels (an edge of
        // a letter at most) has the picture's grey, which fills most of the inner.
        let outer = try #require(rig.headless?.screen(.outer))
        let grey = screen.pixel(x: 480, y: 240)
        let matches = stride(from: 0, to: 360, by: 4).reduce(0) { count, y in
            count + stride(from: 0, to: 640, by: 4).filter { outer.pixel(x: $0, y: y) == grey }.count
        }
        #expect(matches < 90 * 160 / 100, "\(matches) of 14400 outer pixels have the replay's grey")
        // Escape leaves full screen, then closes the replay and gives the lease back.
        rig.key("Esc")
        #expect(rig.stage.clips.replay?.fullScreen == false)
        try SceneReferenceImage.expectMatch(rig.innerCanvas(), named: "console-clips-replay")
        rig.key("Esc")
        #expect(rig.stage.clips.replay == nil)
        #expect(rig.app.recording?.stored.leases.isLeased(clip.mediaPath) == false)
    }

    private func replayStart(_ rig: ClipsHarness) -> Double {
        guard let replay = rig.stage.clips.replay else { return rig.clock.now() }
        return rig.clock.now() - replay.clock.position(at: rig.clock.now())
    }

    @Test func deleteAsksFirstAndCancelKeepsTheClip() throws {
        let rig = try ClipsHarness()
        rig.click("tab:clips")
        rig.key("Down")
        rig.key("Delete")
        #expect(rig.stage.console.state.dialog == .confirmDeleteClip(id: Self.secondTake, title: "Intro, second take"))
        try SceneReferenceImage.expectMatch(rig.innerCanvas(), named: "console-clips-delete-dialog")
        rig.key("Esc")
        #expect(rig.stage.console.state.dialog == nil)
        #expect(FileManager.default.fileExists(atPath: rig.folder + "/\(Self.secondTake).mp4"))
        rig.click("clips:delete")
        rig.click("dialog:confirm")
        #expect(!FileManager.default.fileExists(atPath: rig.folder + "/\(Self.secondTake).mp4"))
        #expect(!FileManager.default.fileExists(atPath: rig.folder + "/\(Self.secondTake).json"))
        #expect(rig.clipRows == [Self.newest, Self.firstTake])
        #expect(rig.stage.console.state.notice == "Deleted \(Self.secondTake)")
    }

    @Test func exportCopiesTheClipToTheChosenFolderWithItsProgress() throws {
        let rig = try ClipsHarness()
        rig.click("tab:clips")
        rig.key("E", text: "e")
        guard case .exportClip(Self.newest, _)? = rig.stage.console.state.dialog else {
            Issue.record("no export sheet: \(String(describing: rig.stage.console.state.dialog))")
            return
        }
        let destinations = rig.stage.clips.listing.destinations
        let index = try #require(destinations.firstIndex { $0.path == rig.exportFolder })
        #expect(destinations[index].kind == .folder)
        rig.click("dialog:destination:\(index)")
        #expect(rig.stage.console.state.dialog == nil)
        rig.waitForThreads { rig.stage.clips.listing.export?.state == .done }
        let exported = rig.exportFolder + "/\(Self.newest).mp4"
        #expect(FileManager.default.contentsEqual(atPath: exported, andPath: rig.folder + "/\(Self.newest).mp4"))
        #expect(FileManager.default.fileExists(atPath: rig.exportFolder + "/\(Self.newest).json"))
        #expect(rig.stage.clips.listing.export?.fraction == 1)
        // A folder, not a stick: nothing to eject before taking it.
        #expect(rig.stage.clips.listing.export?.message == "copied")
        #expect(rig.app.recording?.stored.leases.count == 0)
    }

    @Test func ejectWithNoStickOfTheRigsSaysSo() throws {
        let rig = try ClipsHarness()
        rig.click("tab:clips")
        // No stick is mounted under /run/media/rig on a build machine.
        rig.click("clips:eject")
        #expect(rig.stage.console.state.notice == "Not ejected: no USB stick is mounted")
        #expect(rig.stage.clips.listing.eject == nil)
        let reply = rig.stage.handle(.media(action: "eject", name: "RIGSTICK"))
        #expect(reply.body["ok"]?.boolValue == false)
        #expect(reply.body["error"]?.stringValue?.hasPrefix("no USB stick \"RIGSTICK\" is mounted") == true)
        let list = rig.stage.handle(.media(action: "list", name: nil))
        guard case let .array(media)? = list.body["media"] else { Issue.record("no media list: \(list.body)"); return }
        #expect(media.contains { $0["path"]?.stringValue == rig.exportFolder })
    }

    @Test func aDerivedExportIsWhatGetsExported() throws {
        let rig = try ClipsHarness()
        let derived = rig.folder + "/\(Self.newest)-cue.mp4"
        try Data("derived".utf8).write(to: URL(fileURLWithPath: derived))
        let json = rig.folder + "/\(Self.newest).json"
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        var annotations = object["annotations"] as? [String: String] ?? [:]
        annotations["export"] = "\(Self.newest)-cue.mp4"
        object["annotations"] = annotations
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: json))
        _ = try rig.app.recording?.stored.export(id: Self.newest, to: rig.exportFolder)
        rig.waitForThreads { rig.app.recording?.stored.exports[Self.newest]?.state == .done }
        #expect(try String(contentsOfFile: rig.exportFolder + "/\(Self.newest)-cue.mp4", encoding: .utf8) == "derived")
        #expect(!FileManager.default.fileExists(atPath: rig.exportFolder + "/\(Self.newest).mp4"))
    }

    /// A game clip whose derived export failed says why under the list, and offers
    /// Retry export, which asks the recorder to make it again (`rig ctl clips retry`'s way).
    @Test func aFailedDerivedExportOffersRetryOnTheConsole() throws {
        let rig = try ClipsHarness()
        let json = rig.folder + "/\(Self.newest).json"
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        var annotations = object["annotations"] as? [String: String] ?? [:]
        annotations["export_state"] = "failed"
        object["annotations"] = annotations
        object["export"] = ["kind": "cue", "state": "failed", "file": "\(Self.newest).cue.mp4", "reason": "the disk was full"]
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: json))
        rig.click("tab:clips")
        rig.click("clips:list:all")
        rig.click("clip:" + Self.newest)
        #expect(rig.stage.clips.listing.clips.first { $0.id == Self.newest }?.exportFailure == "the disk was full")
        rig.click("clips:retry")
        // The fixture is no whole game clip, so the recorder refuses, and the console says why:
        // what matters here is that the button reached it.
        let notice = rig.stage.console.state.notice ?? ""
        #expect(notice.hasPrefix("Not retried: ") || notice.hasPrefix("Making the export"), "\(notice)")
        // A clip whose export did not fail has no Retry.
        rig.click("clip:prompter-20261201-081500-1")
        #expect(rig.stage.console.targets["clips:retry"] == nil)
    }

    @Test func pointerAndTouchSelectReplayPauseAndStop() throws {
        let rig = try ClipsHarness()
        rig.click("tab:clips")
        // A tap selects; a second tap on the selected clip replays it.
        let row = try #require(rig.target("clip:" + Self.firstTake))
        func tap(_ target: WidgetTarget) {
            let x = Double(target.rect.x + target.rect.width / 2), y = Double(target.rect.y + target.rect.height / 2)
            rig.app.handle(.innerTouch(phase: .down, slot: 0, x: x, y: y, time: rig.clock.now()))
            rig.app.handle(.innerTouch(phase: .up, slot: 0, x: x, y: y, time: rig.clock.now()))
        }
        tap(row)
        rig.settle()
        #expect(rig.stage.console.state.selectedClip == Self.firstTake && rig.stage.clips.replay == nil)
        tap(row)
        #expect(rig.stage.clips.replay?.id == Self.firstTake)
        rig.waitForThreads { rig.stage.clips.replay?.pictures.newestTime != nil }
        rig.loop.advance(by: 0.2)
        rig.click("clips:play", settle: false)
        let paused = try #require(rig.stage.clips.replay)
        #expect(!paused.clock.isPlaying(at: rig.clock.now()))
        rig.settle()
        #expect(try #require(rig.target("clips:play")).rect.width > 0)
        rig.click("clips:stop")
        #expect(rig.stage.clips.replay == nil)
        #expect(rig.app.recording?.stored.leases.count == 0)
    }

    @Test func aReplayEndsOnItsLastPictureAndPlayStartsItAgain() throws {
        let rig = try ClipsHarness()
        rig.click("tab:clips")
        rig.key("Enter", settle: false)
        let id = try #require(rig.stage.clips.replay?.id)
        // Through the end, letting the decoder keep half a second ahead.
        while rig.stage.clips.replay?.clock.isPlaying(at: rig.clock.now()) == true {
            let position = rig.stage.clips.replay?.clock.position(at: rig.clock.now()) ?? 0
            rig.waitForThreads { rig.stage.clips.replay?.decoderEnded == true || (rig.stage.clips.replay?.pictures.newestTime ?? 0) >= position + 0.4 }
            rig.loop.advance(by: 0.1)
        }
        rig.settle()
        let ended = try #require(rig.stage.clips.replay)
        #expect(ended.decoderEnded && ended.clock.hasEnded(at: rig.clock.now()))
        #expect(ended.pictures.shown?.index == ClipsHarness.frames - 1)
        #expect(rig.frameShown(x: 700, y: 250) == ClipsHarness.frames - 1)
        rig.key("Space", text: " ", settle: false)
        let again = try #require(rig.stage.clips.replay)
        #expect(again.id == id && again.clock.position(at: rig.clock.now()) == 0 && again.clock.isPlaying(at: rig.clock.now()))
        rig.waitForThreads { rig.stage.clips.replay?.pictures.newestTime != nil }
        // The first frame composed after the restart shows the clip's first picture.
        rig.loop.run(seconds: 0.03) { rig.frameShown(x: 700, y: 250) == 0 }
    }

    @Test func controlSocketReplaysAndStops() throws {
        let rig = try ClipsHarness()
        #expect(rig.app.stage.handle(.clips(action: "replay", id: "nope", to: nil)).body["ok"]?.boolValue == false)
        let reply = rig.app.stage.handle(.clips(action: "replay", id: Self.firstTake, to: nil))
        #expect(reply.body["replay"]?.stringValue == Self.firstTake, "\(reply.body)")
        #expect(rig.stage.console.state.screen == .clips && rig.stage.console.state.selectedClip == Self.firstTake)
        rig.waitForThreads { rig.stage.clips.replay?.pictures.newestTime != nil }
        rig.loop.advance(by: 0.1)
        #expect(rig.app.stage.status(at: rig.clock.now())["clips"]?["replay"]?["playing"]?.boolValue == true)
        #expect(rig.app.stage.handle(.clips(action: "stop", id: nil, to: nil)).body["ok"]?.boolValue == true)
        #expect(rig.stage.clips.replay == nil && rig.app.recording?.stored.leases.count == 0)
    }
}
