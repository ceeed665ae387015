import Foundation
import Prompter
import Stage
import Testing
@testable import Kiosk

/// An imported document on the console: dropped in while the kiosk runs, listed once
/// converted, opened for prompting, refused by the editor with the reason.
@Suite(.serialized) struct ConsoleImportTests {
    @Test func aDroppedDocumentIsListedOpensAndIsReadOnly() throws {
        let rig = try ConsoleHarness()
        rig.click("tab:library")
        let source = rig.root.appendingPathComponent("show.md")
        try Data("# Opening\n\nHello and welcome.\n".utf8).write(to: source)
        let pandoc = Process()
        pandoc.executableURL = URL(fileURLWithPath: "/usr/bin/pandoc")
        pandoc.arguments = ["-f", "markdown", "-t", "docx", "-o", rig.scripts.appendingPathComponent("Show.docx").path, source.path]
        try pandoc.run()
        pandoc.waitUntilExit()
        try #require(pandoc.terminationStatus == 0)
        #expect(rig.run(seconds: 30) { rig.scriptRows.contains("Show.docx") })
        rig.click("script:Show.docx")
        rig.click("library:edit")
        #expect(rig.state.screen != .editor)
        #expect(rig.state.notice?.contains("read-only") == true, "\(rig.state.notice ?? "no notice")")
        rig.click("library:open")
        #expect(rig.app.stage.controller.script?.id == "Show.docx")
        #expect(rig.app.stage.controller.script?.markers.map(\.name) == ["Opening"])
    }
}
