import Foundation
import Prompter
import Game
import Media
import Synchronization
import Testing
@testable import Kiosk
@testable import Stage

/// Files of people (takes, game clips, their JSON, derived exports, copies out) and the
/// state folder are private by code, not by the unit's UMask=0077: recorded here under
/// umask 022, they must still come out 0600 (folders 0700).
@Suite(.serialized) struct PrivateFilesTests {
    /// The umask is the process's: one test at a time changes it, and puts it back.
    private static let umaskLock = Mutex(())

    private func underUmask022<T>(_ body: () throws -> T) rethrows -> T {
        try Self.umaskLock.withLock { _ in
            let saved = umask(0o022)
            defer { umask(saved) }
            return try body()
        }
    }

    private func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    private func expectMode(_ path: String, _ expected: mode_t, sourceLocation: SourceLocation = #_sourceLocation) {
        let actual = mode(path)
        #expect(actual == expected, "\(path) is \(actual.map { String($0, radix: 8) } ?? "missing"), not \(String(expected, radix: 8))",
                sourceLocation: sourceLocation)
    }

    @Test func aPrompterTakeAndItsFolderArePrivateUnderUmask022() throws {
        try underUmask022 {
            var takes = ""
            let rig = try RecordingHarness { settings in
                settings.folder += "/takes"
                takes = settings.folder
            }
            #expect(!FileManager.default.fileExists(atPath: takes))
            rig.sound()
            let id = try rig.service.start(RecordingTake(kind: .prompter), video: rig.video)
            rig.record(seconds: 1.0)
            try rig.service.finish(generation: id)
            rig.runUntil { !rig.outcomes.isEmpty }
            let result = try #require(rig.outcomes.first?.result)
            #expect(result.videoFrames == 30)
            expectMode(takes, 0o700)
            expectMode(result.path, 0o600)
            expectMode(String(result.path.dropLast(4)) + ".json", 0o600)
        }
    }

    @Test func aGameClipItsNarratedExportAndACopyOutArePrivateUnderUmask022() throws {
        try underUmask022 {
            let h = try GameRecordingHarness(response: 2)
            // The service makes the folder at the first take, as on a fresh rig.
            #expect(rmdir(h.rig.folder) == 0)
            try h.send()
            h.play(upTo: 12) { h.phase == .review || h.rig.service.phase != .recording && h.phase == .tail }
            h.settle { h.phase == .review }
            let attempt = try #require(h.attempt)
            guard case .saved(let file) = attempt.media else { Issue.record("media \(attempt.media)"); return }
            try h.game.perform(.judge(.pass))
            h.settle { (try? h.metadata(file))?.export?.state != .pending }
            let clip = try h.metadata(file)
            #expect(clip.export?.kind == .narrated && clip.export?.state == .ready, "\(String(describing: clip.export))")
            expectMode(h.rig.folder, 0o700)
            expectMode(file, 0o600)
            expectMode(String(file.dropLast(4)) + ".json", 0o600)
            expectMode(h.rig.folder + "/" + (clip.export?.file ?? "no export"), 0o600)

            // Copied out (a USB stick): the copy is made under a temporary name, renamed.
            let id = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
            let out = h.rig.folder + "-out"
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: out) }
            _ = try h.rig.service.stored.export(id: id, to: out)
            h.settle { h.rig.service.stored.exports[id]?.state != .copying }
            let copied = try #require(h.rig.service.stored.exports[id])
            #expect(copied.state == .done, "\(copied)")
            expectMode(copied.destination, 0o600)
        }
    }

    @Test func theStateFolderAndEveryFileInItArePrivateUnderUmask022() throws {
        try underUmask022 {
            let clock = ManualClock(0)
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("rig-private-\(UUID().uuidString.prefix(8))")
            defer { try? FileManager.default.removeItem(at: root) }
            let state = root.appendingPathComponent("state")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("scripts"), withIntermediateDirectories: true)
            try Data(String(repeating: "Read these words at a steady pace. ", count: 100).utf8)
                .write(to: root.appendingPathComponent("scripts/Take.txt"))
            let loaded = ConfigLoader.load(text: "", name: "test", overrides: [
                "state.dir=\"\(state.path)\"", "prompter.scripts_dir=\"\(root.path)/scripts\"",
                "control.socket=\"\(root.path)/control.sock\"",
                "displays.headless_width=480", "displays.headless_height=270", "prompter.font_size=24",
            ])
            #expect(loaded.errors.isEmpty, "\(loaded.errors)")
            let app = try KioskApp(config: loaded.config, configProblems: [], backend: .headless, devices: [],
                                   clock: clock.now)
            defer { app.shutdown() }
            app.start()
            ManualLoop(clock: clock, loop: app.loop).run(seconds: 10) { app.stage.controller.script?.id == "Take.txt" }
            let controller = app.stage.controller
            // Settings, a marker, the reading position; a game session and its id.
            controller.perform(.mirror, at: app.loop.clock())
            #expect(app.stage.handle(.marker(action: "set", to: nil)).body["ok"] == true)
            let offset = controller.engine.offset(at: app.loop.clock() + 5)
            controller.resume?.save(ResumeState(scriptID: "Take.txt", offset: offset, wordIndex: 3))
            controller.resume?.flush()
            try app.stage.game.start(GameSetup(host: "Host", players: ["Ann", "Bo"], settings: GameSettings()))

            expectMode(state.path, 0o700)
            var files: [String] = [], folders: [String] = []
            let walker = try #require(FileManager.default.enumerator(atPath: state.path))
            for case let name as String in walker {
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: state.path + "/" + name, isDirectory: &isFolder)
                if isFolder.boolValue { folders.append(name) } else { files.append(name) }
            }
            // What the kiosk keeps there, so the check below covers each kind of state.
            for expected in ["reading-settings.json", "resume.json", "markers.json", "game/session.json", "game/session-id"] {
                #expect(files.contains(expected), "\(expected) missing among \(files.sorted())")
            }
            for name in folders { expectMode(state.path + "/" + name, 0o700) }
            for name in files { expectMode(state.path + "/" + name, 0o600) }
        }
    }
}
