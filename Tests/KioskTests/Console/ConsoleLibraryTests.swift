import Foundation
import Prompter
import Testing
@testable import Kiosk
@testable import Stage

/// The library screen driven end to end on a headless kiosk: keys, clicks, search,
/// and every edit, checked on the console state, the prompter and the files.
@Suite(.serialized) struct ConsoleLibraryTests {
    @Test func theLibraryKeyOpensTheListNewestFirstAndEnterOpensAScript() throws {
        let rig = try ConsoleHarness()
        #expect(rig.state.screen == .prompter)
        rig.key("Esc")
        #expect(rig.state.screen == .library)
        #expect(rig.app.stage.controller.mode == .library)
        #expect(rig.scriptRows == ["Talks/Intro.txt", "Keynote.md", "Notes.txt"])
        rig.key("Right")
        rig.key("Down")
        #expect(rig.state.focus == "script:Keynote.md")
        rig.key("Enter")
        #expect(rig.app.stage.controller.script?.id == "Keynote.md")
        #expect(rig.state.screen == .prompter)
        #expect(rig.app.stage.controller.mode == .prompter)
    }

    @Test func typingSearchesAsYouTypeAndEscapeClears() throws {
        let rig = try ConsoleHarness()
        rig.click("tab:library")
        rig.type("crew")
        #expect(rig.state.search == "crew")
        #expect(rig.scriptRows == ["Notes.txt"])
        // "b" and "m" are bound keys (blank, mirror); in the library they type.
        rig.key("BackSpace")
        rig.type("bm")
        #expect(rig.scriptRows.isEmpty)
        #expect(!rig.app.stage.controller.blanked && !rig.app.stage.controller.settings.mirror)
        rig.key("Esc")
        #expect(rig.state.search.isEmpty)
        #expect(rig.scriptRows.count == 3)
    }

    @Test func aFolderInTheSidebarNarrowsTheList() throws {
        let rig = try ConsoleHarness()
        rig.click("tab:library")
        rig.click("folder:Talks")
        #expect(rig.scriptRows == ["Talks/Intro.txt"])
        rig.click("folder:*top")
        #expect(rig.scriptRows == ["Keynote.md", "Notes.txt"])
    }

    @Test func aClickSelectsAndASecondClickOpens() throws {
        let rig = try ConsoleHarness()
        rig.click("tab:library")
        rig.click("script:Notes.txt")
        #expect(rig.state.selectedScript == "Notes.txt")
        #expect(rig.app.stage.controller.script?.id != "Notes.txt")
        rig.tap("script:Notes.txt")
        #expect(rig.app.stage.controller.script?.id == "Notes.txt")
    }

    @Test func deleteAsksFirstAndEscapeKeepsTheScript() throws {
        let rig = try ConsoleHarness()
        rig.click("tab:library")
        rig.click("script:Notes.txt")
        rig.key("Delete")
        #expect(rig.state.dialog == .confirmDelete(id: "Notes.txt", title: "Notes"))
        // Only the dialog takes input now.
        #expect(rig.app.stage.console.targets.all.allSatisfy { $0.id.hasPrefix("dialog:") })
        rig.key("Esc")
        #expect(rig.state.dialog == nil)
        #expect(rig.fileText("Notes.txt") != nil)
        rig.click("library:delete")
        rig.click("dialog:confirm")
        #expect(rig.fileText("Notes.txt") == nil)
        #expect(!rig.scriptRows.contains("Notes.txt"))
        #expect(rig.state.notice == "Deleted “Notes”")
    }

    @Test func renameDuplicateAndMoveWorkOnTheDisk() throws {
        let rig = try ConsoleHarness()
        rig.click("tab:library")
        rig.click("script:Notes.txt")
        rig.key("F2")
        #expect(rig.state.dialog == .rename(id: "Notes.txt", text: "Notes"))
        for _ in 0..<5 { rig.key("BackSpace") }
        rig.type("Crew")
        rig.key("Enter")
        #expect(rig.fileText("Crew.txt") == "Remember to thank the crew. Lights, camera, sound.")
        #expect(rig.fileText("Notes.txt") == nil)
        #expect(rig.state.selectedScript == "Crew.txt")
        rig.click("library:duplicate")
        #expect(rig.fileText("Crew copy.txt") != nil)
        #expect(rig.state.selectedScript == "Crew copy.txt")
        rig.click("library:move")
        rig.click("dialog:folder:Talks")
        #expect(rig.fileText("Talks/Crew copy.txt") != nil)
        #expect(rig.fileText("Crew copy.txt") == nil)
        rig.click("library:new-folder")
        rig.type("Drafts")
        rig.key("Enter")
        #expect(rig.app.stage.controller.library?.folders().contains("Drafts") == true)
    }

    @Test func aRenameThatClashesSaysWhyAndKeepsBothScripts() throws {
        let rig = try ConsoleHarness()
        rig.click("tab:library")
        rig.click("script:Notes.txt")
        rig.key("F2")
        for _ in 0..<5 { rig.key("BackSpace") }
        rig.type("Keynote")
        rig.key("Enter")
        #expect(rig.fileText("Notes.txt") != nil)
        #expect(rig.fileText("Keynote.md") != nil)
        #expect(rig.state.notice?.isEmpty == false)
    }

    @Test func newOpensTheEditorAndTypingIsSavedWithoutAButton() throws {
        let rig = try ConsoleHarness()
        rig.click("tab:library")
        rig.click("library:new")
        #expect(rig.state.screen == .editor)
        let id = try #require(rig.state.editor?.scriptID)
        rig.type("Hello there")
        #expect(rig.state.editor?.wordCount == 2)
        rig.run { rig.fileText(id) == "Hello there" }
        #expect(rig.state.editor?.isDirty == false)
        rig.key("Esc")
        #expect(rig.state.screen == .library)
    }

    @Test func scriptsCopiedIntoTheFolderAppearWithoutAnyKey() throws {
        let rig = try ConsoleHarness()
        rig.click("tab:library")
        try Data("Fresh from the stick.".utf8).write(to: rig.scripts.appendingPathComponent("Stick.txt"))
        rig.run { rig.scriptRows.first == "Stick.txt" }
        try FileManager.default.removeItem(at: rig.scripts.appendingPathComponent("Stick.txt"))
        rig.run { !rig.scriptRows.contains("Stick.txt") }
    }

    @Test func theControlSocketsModeRequestMovesTheConsoleToo() throws {
        let rig = try ConsoleHarness()
        #expect(rig.app.stage.handle(.mode("library")) == .success())
        rig.settle()
        #expect(rig.state.screen == .library)
        #expect(rig.app.stage.handle(.open("Notes.txt")) == .success())
        rig.settle()
        #expect(rig.state.screen == .prompter)
        rig.key("Esc")
        #expect(rig.app.stage.handle(.mode("framing")) == .success())
        rig.settle()
        #expect(rig.state.screen == .prompter)
    }

    @Test func aHeldKeyRepeatsMovesAndTypingButNeverOpensOrDeletesTwice() throws {
        let rig = try ConsoleHarness()
        rig.key("Esc")
        let now = rig.app.loop.clock()
        let down = KeyPress(code: KeyNames.code(for: "Down") ?? 0, symbol: .down, time: now)
        rig.app.handle(.key(down))
        var held = down
        held.isRepeat = true
        rig.app.handle(.key(held))
        rig.settle()
        // The first Down focuses the selected script, the repeat moves on from it.
        #expect(rig.state.focus == "script:Keynote.md")
        var enter = KeyPress(code: KeyNames.code(for: "Enter") ?? 0, symbol: .enter, time: now, isRepeat: true)
        rig.app.handle(.key(enter))
        #expect(rig.app.stage.controller.script?.id == "Talks/Intro.txt")
        enter.isRepeat = false
        rig.app.handle(.key(enter))
        #expect(rig.app.stage.controller.script?.id == "Keynote.md")
        rig.key("Esc")
        var typed = KeyPress(code: KeyNames.code(for: "K") ?? 0, text: "k", time: now)
        rig.app.handle(.key(typed))
        typed.isRepeat = true
        rig.app.handle(.key(typed))
        #expect(rig.state.search == "kk")
    }

    @Test func renamingTheOpenScriptKeepsItOnThePrompterUnderItsNewName() throws {
        let rig = try ConsoleHarness()
        #expect(rig.app.stage.controller.script?.id == "Talks/Intro.txt")
        rig.key("Esc")
        rig.key("F2")
        for _ in 0..<5 { rig.key("BackSpace") }
        rig.type("Opening")
        rig.key("Enter")
        #expect(rig.fileText("Talks/Opening.txt") != nil)
        #expect(rig.app.stage.controller.script?.id == "Talks/Opening.txt")
        #expect(rig.app.stage.controller.script?.title == "Opening")
    }
}
