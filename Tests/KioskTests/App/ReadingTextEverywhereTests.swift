import Foundation
import Prompter
import Stage
import Testing
@testable import Kiosk

/// One reading text for every reader of a script: the talent's display, the operator's
/// copy (drawn from the same `ReadingText`), word counts, reading times and search all
/// see the file's soft breaks joined.
@Suite(.serialized) struct ReadingTextEverywhereTests {
    @Test func talentOperatorCountsAndSearchShareTheJoinedText() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rig-everywhere-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let scripts = root.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        let welcome = try String(contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples/scripts/Welcome.md").path, encoding: .utf8)
        let apache = try String(contentsOfFile: "/usr/share/common-licenses/Apache-2.0", encoding: .utf8)
        try Data(welcome.utf8).write(to: scripts.appendingPathComponent("Welcome.md"))
        try Data(apache.utf8).write(to: scripts.appendingPathComponent("Apache.txt"))
        let loaded = ConfigLoader.load(text: "", name: "test", overrides: [
            "state.dir=\"\(root.path)\"", "control.socket=\"\(root.path)/control.sock\"",
            "displays.headless_width=960", "displays.headless_height=540", "prompter.font_size=32",
        ])
        #expect(loaded.errors.isEmpty, "\(loaded.errors)")
        let app = try KioskApp(config: loaded.config, configProblems: [], backend: .headless, devices: [])
        app.start()
        defer { app.shutdown() }
        #expect(app.stage.handle(.open("Welcome.md")) == .success())
        let deadline = app.loop.clock() + 10
        while app.stage.renderer.readingText?.text != app.stage.controller.script?.text && app.loop.clock() < deadline {
            app.loop.runOnce(timeout: 0.02)
        }
        let reading = ScriptLibrary.readingText(welcome, format: .markdown, lineBreaks: .auto)
        #expect(app.stage.controller.script?.text == reading)
        #expect(app.stage.renderer.readingText?.text == reading, "the talent's and the operator's text")
        #expect(reading.contains("the scroll stays smooth on a small computer"))

        let listing = app.stage.handle(.scripts(search: nil)).body["scripts"]
        guard case let .array(items)? = listing else { Issue.record("no script list: \(String(describing: listing))"); return }
        let entry = try #require(items.first { $0["id"]?.stringValue == "Welcome.md" })
        let words = ReadingTime.wordCount(reading)
        #expect(entry["words"] == .number(Double(words)))
        #expect(entry["reading_time"]?.stringValue == ReadingTime.label(words: words))

        // Phrases that cross a newline of the file are found.
        for (phrase, id) in [("smooth on a small computer", "Welcome.md"), ("entity authorized by the copyright owner", "Apache.txt")] {
            let found = app.stage.handle(.scripts(search: phrase)).body["scripts"]
            guard case let .array(hits)? = found else { Issue.record("no search result"); continue }
            #expect(hits.compactMap { $0["id"]?.stringValue } == [id], "\(phrase)")
        }
        #expect(!apache.contains("entity authorized by the copyright owner"), "the phrase crosses a newline in the file")
    }
}
