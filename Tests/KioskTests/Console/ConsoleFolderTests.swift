import Foundation
import Prompter
import Testing
@testable import Kiosk
@testable import Stage

/// Library folders renamed and deleted from the console (keys and pointer) and the
/// control socket, on a headless kiosk: the files, the listing, the open script that
/// lives in the folder, and the refusals that change nothing.
@Suite(.serialized) struct ConsoleFolderTests {
    private func playingIntro(_ rig: ConsoleHarness) {
        #expect(rig.app.stage.controller.script?.id == "Talks/Intro.txt", "the newest script opens first")
        _ = rig.app.stage.handle(.play)
        rig.run { rig.app.stage.controller.engine.offset(at: rig.app.loop.clock()) > 0 }
    }

    private func expectStillPlaying(_ rig: ConsoleHarness, as id: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let controller = rig.app.stage.controller
        #expect(controller.script?.id == id, sourceLocation: sourceLocation)
        #expect(controller.engine.state == .playing, sourceLocation: sourceLocation)
        let before = controller.engine.offset(at: rig.app.loop.clock())
        rig.run(sourceLocation: sourceLocation) { controller.engine.offset(at: rig.app.loop.clock()) > before }
    }

    @Test func f2OnAFolderRenamesItAndTheOpenScriptFollows() throws {
        let rig = try ConsoleHarness()
        playingIntro(rig)
        rig.click("tab:library")
        rig.click("folder:Talks")
        #expect(rig.state.focus == "folder:Talks")
        rig.key("F2")
        #expect(rig.state.dialog == .renameFolder(name: "Talks", text: "Talks"))
        for _ in 0..<"Talks".count { rig.key("BackSpace") }
        rig.type("Shows")
        rig.key("Enter")
        #expect(rig.state.dialog == nil)
        #expect(rig.fileText("Shows/Intro.txt") != nil && rig.fileText("Talks/Intro.txt") == nil)
        #expect(rig.state.folder == .folder("Shows"))
        #expect(rig.scriptRows == ["Shows/Intro.txt"])
        #expect(rig.state.notice == "Folder “Talks” renamed to “Shows”")
        expectStillPlaying(rig, as: "Shows/Intro.txt")
    }

    @Test func deleteFolderAsksHowManyMoveThenKeepsThemAtTheTop() throws {
        let rig = try ConsoleHarness()
        try Data("Second talk.".utf8).write(to: rig.scripts.appendingPathComponent("Talks/Outro.md"))
        rig.app.stage.controller.library?.refresh()
        rig.app.stage.console.libraryChanged()
        playingIntro(rig)
        rig.click("tab:library")
        rig.click("folder:Talks")
        rig.click("library:delete-folder")
        #expect(rig.state.dialog == .confirmDeleteFolder(name: "Talks", scripts: 2))
        #expect(rig.state.focus == "dialog:cancel", "the safe answer is the default")
        rig.click("dialog:confirm")
        #expect(!FileManager.default.fileExists(atPath: rig.scripts.appendingPathComponent("Talks").path))
        #expect(rig.fileText("Intro.txt") == "Welcome to the show.\n\nTonight we talk about light.")
        #expect(rig.fileText("Outro.md") == "Second talk.")
        #expect(rig.state.folder == .allScripts)
        #expect(Set(rig.scriptRows) == ["Intro.txt", "Outro.md", "Keynote.md", "Notes.txt"], "none deleted")
        #expect(rig.state.notice == "Folder “Talks” deleted; its 2 scripts are at the top level")
        expectStillPlaying(rig, as: "Intro.txt")
    }

    @Test func theDeleteKeyOnAFolderRowAsksAboutTheFolderAndEscapeKeepsIt() throws {
        let rig = try ConsoleHarness()
        rig.click("tab:library")
        rig.click("folder:Talks")
        rig.key("Delete")
        #expect(rig.state.dialog == .confirmDeleteFolder(name: "Talks", scripts: 1))
        rig.key("Esc")
        #expect(rig.state.dialog == nil)
        #expect(rig.state.focus == "folder:Talks")
        #expect(rig.fileText("Talks/Intro.txt") != nil)
    }

    @Test func refusedRenamesAndAVanishedFolderChangeNothing() throws {
        let rig = try ConsoleHarness()
        try FileManager.default.createDirectory(at: rig.scripts.appendingPathComponent("Drafts"), withIntermediateDirectories: true)
        rig.app.stage.controller.library?.refresh()
        rig.app.stage.console.libraryChanged()
        rig.click("tab:library")
        for (name, reason) in [("Drafts", "There is already a script or folder named \"Drafts\"."),
                               ("a/b", "\"a/b\" cannot be used as a name")] {
            rig.click("folder:Talks")
            rig.click("library:rename-folder")
            for _ in 0..<"Talks".count { rig.key("BackSpace") }
            rig.type(name)
            rig.click("dialog:confirm")
            #expect(rig.state.notice?.hasPrefix(reason) == true, "\(rig.state.notice ?? "no notice")")
            #expect(rig.fileText("Talks/Intro.txt") != nil)
            #expect(rig.app.stage.controller.library?.folders() == ["Drafts", "Talks"])
        }
        // Deleted from a shell while the question is open.
        rig.click("folder:Drafts")
        rig.click("library:delete-folder")
        try FileManager.default.removeItem(at: rig.scripts.appendingPathComponent("Drafts"))
        rig.click("dialog:confirm")
        #expect(rig.state.notice == "Folder \"Drafts\" no longer exists.")
        #expect(rig.fileText("Talks/Intro.txt") != nil)
    }

    @Test func theControlSocketListsRenamesAndDeletesFolders() throws {
        let rig = try ConsoleHarness()
        playingIntro(rig)
        #expect(rig.app.stage.handle(.folders).body["folders"] == [["name": "Talks", "scripts": 1]])
        #expect(rig.app.stage.handle(.renameFolder(name: "Talks", to: "Keynote.md")).body["ok"] == false)
        #expect(rig.app.stage.handle(.renameFolder(name: "Talks", to: "Shows")) == .success(["folder": "Shows"]))
        expectStillPlaying(rig, as: "Shows/Intro.txt")
        let reply = rig.app.stage.handle(.deleteFolder("Shows"))
        #expect(reply == .success(["moved": [["from": "Shows/Intro.txt", "to": "Intro.txt"]]]))
        expectStillPlaying(rig, as: "Intro.txt")
        #expect(rig.app.stage.handle(.folders).body["folders"] == [])
        #expect(rig.app.stage.handle(.deleteFolder("Shows")).body["error"] == "Folder \"Shows\" no longer exists.")
    }

    @Test func folderRequestsParseFromTheWireAndTheCommandLine() throws {
        let line = Data(#"{"cmd":"folder","action":"rename","name":"Old","to":"New"}"#.utf8)
        #expect(try ControlRequest.parse(line).get() == .renameFolder(name: "Old", to: "New"))
        #expect(try ControlRequest.parse(Data(#"{"cmd":"folder","action":"delete","name":"X"}"#.utf8)).get() == .deleteFolder("X"))
        if case .success = ControlRequest.parse(Data(#"{"cmd":"folder","action":"rename","name":"X"}"#.utf8)) {
            Issue.record("a rename without a new name must be refused")
        }
        var arguments = Arguments(["folder", "rename", "Old", "New"])
        #expect(try CtlCommand.parseRequest(&arguments, search: nil) == .renameFolder(name: "Old", to: "New"))
        var delete = Arguments(["folder", "delete", "Old"])
        #expect(try CtlCommand.parseRequest(&delete, search: nil) == .deleteFolder("Old"))
        #expect(ControlRequest.renameFolder(name: "Old", to: "New").json["to"] == "New")
    }
}
