import Foundation
import Prompter
import Stage
import Testing
@testable import Kiosk

/// The headless kiosk with a .docx in its scripts folder: the finished conversion is
/// listed (the importer's thread wakes the loop, or the refresh when the watch starts
/// takes it), one dropped while it runs is seen by the watcher and listed when the
/// importer is done, and `rig ctl open` (the control request) opens it with its markers.
@Suite(.serialized) struct ImportedScriptKioskTests {
    @Test func aDroppedDocxIsConvertedOffTheLoopAndOpens() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rig-import-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let scripts = root.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        let source = root.appendingPathComponent("made.md")
        try Data("# Welcome\n\nGood evening.\n\n# Weather\n\nSun all day.\n".utf8).write(to: source)
        let pandoc = Process()
        pandoc.executableURL = URL(fileURLWithPath: "/usr/bin/pandoc")
        pandoc.arguments = ["-f", "markdown", "-t", "docx", "-o", scripts.appendingPathComponent("News.docx").path, source.path]
        try pandoc.run()
        pandoc.waitUntilExit()
        try #require(pandoc.terminationStatus == 0)

        let loaded = ConfigLoader.load(text: "", name: "test", overrides: [
            "state.dir=\"\(root.path)\"", "control.socket=\"\(root.path)/control.sock\"",
            "displays.headless_width=960", "displays.headless_height=540",
        ])
        #expect(loaded.errors.isEmpty, "\(loaded.errors)")
        let app = try KioskApp(config: loaded.config, configProblems: [], backend: .headless, devices: [])
        app.start()
        defer { app.shutdown() }
        let library = try #require(app.stage.controller.library)
        // (That the scan hands the document to the importer's thread and goes on is
        // ScriptImportTests' to show: here pandoc may finish before the watcher starts.)
        let deadline = app.loop.clock() + 30
        while library.scripts().isEmpty && app.loop.clock() < deadline { app.loop.runOnce(timeout: 0.02) }
        #expect(library.scripts().map(\.id) == ["News.docx"], "the loop was not woken by the finished conversion")

        let listed = app.stage.handle(.scripts(search: nil)).body
        guard case let .array(items)? = listed["scripts"] else { Issue.record("no scripts in \(listed)"); return }
        #expect(items.count == 1)
        #expect(items.first?["imported_from"] == .string("docx"))
        let opened = app.stage.handle(.open("News.docx")).body
        #expect(opened["ok"] == .bool(true), "\(opened)")
        #expect(app.stage.controller.script?.markers.map(\.name) == ["Welcome", "Weather"])

        // A document dropped while the kiosk runs: its arrival wakes the loop through the
        // watcher, its result through the importer's mailbox post, nothing else prodding.
        let late = Process()
        late.executableURL = URL(fileURLWithPath: "/usr/bin/pandoc")
        late.arguments = ["-f", "markdown", "-t", "odt", "-o", scripts.appendingPathComponent("Late.odt").path, source.path]
        try late.run()
        late.waitUntilExit()
        let lateDeadline = app.loop.clock() + 30
        while library.entry(id: "Late.odt")?.condition != .ok && app.loop.clock() < lateDeadline {
            app.loop.runOnce(timeout: 0.02)
        }
        #expect(library.scripts().map(\.id).sorted() == ["Late.odt", "News.docx"])
    }
}
