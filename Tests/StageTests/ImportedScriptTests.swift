import Foundation
import Prompter
import Testing
@testable import Stage

/// An imported .odt opened for prompting: its headings are the controller's markers.
@Suite struct ImportedScriptTests {
    @Test func anImportedDocumentOpensWithItsHeadingsAsMarkers() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rig-import-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let scripts = root.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        let markdown = scripts.appendingPathComponent(".made.md")
        try Data("# Welcome\n\nHello there.\n\n# Close\n\nGood night.\n".utf8).write(to: markdown)
        let pandoc = Process()
        pandoc.executableURL = URL(fileURLWithPath: "/usr/bin/pandoc")
        pandoc.arguments = ["-f", "markdown", "-t", "odt", "-o", scripts.appendingPathComponent("Show.odt").path, markdown.path]
        try pandoc.run()
        pandoc.waitUntilExit()
        try #require(pandoc.terminationStatus == 0)
        let library = try ScriptLibrary(root: scripts)
        #expect(library.importer.waitUntilIdle(timeout: 60))
        library.refresh()
        let controller = PrompterController(library: library, stateDirectory: root, defaults: .standard, wordsPerMinute: 150)
        try controller.open(id: "Show.odt", at: 0)
        #expect(controller.script?.title == "Show")
        #expect(controller.script?.markers.map(\.name) == ["Welcome", "Close"])
    }
}
