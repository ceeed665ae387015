import Foundation
import Prompter
import Render
import Testing
@testable import Kiosk
@testable import Stage

/// Each console screen at 960x540 against a reference image (per-channel tolerance;
/// on a mismatch the actual image and a diff are written next to the reference).
@Suite(.serialized) struct ConsoleReferenceTests {
    @Test func operatorView() throws {
        let rig = try ConsoleHarness()
        rig.key("Tab")
        try SceneReferenceImage.expectMatch(rig.innerCanvas(), named: "console-operator")
    }

    @Test func operatorViewOfAMirroredQuarterTurnStaysUpright() throws {
        let rig = try ConsoleHarness(overrides: ["prompter.mirror=true", "prompter.rotation=90"])
        try SceneReferenceImage.expectMatch(rig.innerCanvas(), named: "console-operator-rot90-mirror")
    }

    @Test func library() throws {
        let rig = try ConsoleHarness()
        rig.key("Esc")
        rig.key("Down")
        try SceneReferenceImage.expectMatch(rig.innerCanvas(), named: "console-library")
    }

    @Test func deleteConfirmation() throws {
        let rig = try ConsoleHarness()
        rig.key("Esc")
        rig.key("Delete")
        try SceneReferenceImage.expectMatch(rig.innerCanvas(), named: "console-delete-dialog")
    }

    @Test func deleteFolderConfirmation() throws {
        let rig = try ConsoleHarness()
        rig.click("tab:library")
        rig.click("folder:Talks")
        rig.click("library:delete-folder")
        try SceneReferenceImage.expectMatch(rig.innerCanvas(), named: "console-delete-folder-dialog")
    }

    @Test func settings() throws {
        let rig = try ConsoleHarness()
        rig.app.stage.console.show(.settings)
        rig.settle()
        rig.key("Down")
        try SceneReferenceImage.expectMatch(rig.innerCanvas(), named: "console-settings")
    }

    @Test func editor() throws {
        let rig = try ConsoleHarness()
        rig.app.stage.console.show(.editor)
        rig.settle()
        rig.key("Down")
        rig.key("Down")
        rig.key("End")
        try SceneReferenceImage.expectMatch(rig.innerCanvas(), named: "console-editor")
    }

    /// A Markdown script in the editor: its markup as written, the marked words bold,
    /// italic, highlighted and in the direction colour, and the count and reading time
    /// of the words the talent says (issue 42).
    @Test func editorShowsMarksAsTheTalentSeesThem() throws {
        let rig = try ConsoleHarness()
        try Data("# **Opening**\n\nSay *this* slowly. [PAUSE]\nThen ==the news==, ***all of it***.\n".utf8)
            .write(to: rig.scripts.appendingPathComponent("Marked.md"))
        _ = rig.app.stage.controller.library?.refresh()
        rig.app.stage.console.openEditor(id: "Marked.md")
        rig.settle()
        #expect(rig.app.stage.console.state.editor?.wordCount == 10, "[PAUSE] is not counted")
        try SceneReferenceImage.expectMatch(rig.innerCanvas(), named: "console-editor-marked")
    }
}
