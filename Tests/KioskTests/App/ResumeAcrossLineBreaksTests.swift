import Foundation
import Prompter
@testable import Render
import Stage
import Testing
@testable import Kiosk

/// A script read before line breaks were joined resumes on the same word after: the
/// saved position is a word number (Render's UAX #14 words), and joining lines must
/// neither add nor remove a word nor change which word has which number.
@Suite(.serialized) struct ResumeAcrossLineBreaksTests {
    /// The words as the layout numbers them: UAX #14 segments holding more than spaces,
    /// each with its text (trailing spaces and the newline dropped).
    static func words(_ text: String) -> [String] {
        let script = ScriptText(text)
        var words: [String] = []
        script.scalars.withUnsafeBufferPointer { all in
            for paragraph in script.paragraphs where !paragraph.isEmpty {
                let block = UnsafeBufferPointer(rebasing: all[paragraph])
                let starts = WordStarts(block, canBreakAfter: LineBreaker.opportunities(block), segmentHasWord: false)
                let indices = (0..<block.count).filter(starts.isStart)
                for (k, start) in indices.enumerated() {
                    let end = k + 1 < indices.count ? indices[k + 1] : block.count
                    let scalars = block[start..<end].compactMap(Unicode.Scalar.init)
                    words.append(String(String.UnicodeScalarView(scalars)).trimmingCharacters(in: .whitespacesAndNewlines))
                }
            }
        }
        return words
    }

    /// Every newline of `markdown` made a hard break: the reading text as it was when
    /// each line of the file was its own line.
    static func everyLineKept(_ markdown: String) -> String {
        markdown.split(separator: "\n", omittingEmptySubsequences: false).map { $0 + "  " }.joined(separator: "\n")
    }

    static var welcome: String {
        get throws {
            try String(contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("examples/scripts/Welcome.md").path, encoding: .utf8)
        }
    }

    @Test func joiningKeepsEveryWordNumber() throws {
        let gpl = try String(contentsOfFile: "/usr/share/common-licenses/GPL-3", encoding: .utf8)
        let cases: [(String, String, String)] = [
            ("GPL-3.txt", ScriptLibrary.readingText(gpl, format: .plainText, lineBreaks: .keep),
             ScriptLibrary.readingText(gpl, format: .plainText, lineBreaks: .auto)),
            ("GPL-3.md", ScriptLibrary.readingText(Self.everyLineKept(gpl), format: .markdown, lineBreaks: .auto),
             ScriptLibrary.readingText(gpl, format: .markdown, lineBreaks: .auto)),
            ("Welcome.md", ScriptLibrary.readingText(Self.everyLineKept(try Self.welcome), format: .markdown, lineBreaks: .auto),
             ScriptLibrary.readingText(try Self.welcome, format: .markdown, lineBreaks: .auto)),
        ]
        for (name, before, after) in cases {
            #expect(before != after, "\(name): nothing was joined")
            let old = Self.words(before), new = Self.words(after)
            #expect(old.count > 100 || name == "Welcome.md")
            #expect(old.count == new.count, "\(name): \(old.count) words became \(new.count)")
            let firstDifference = zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }
            #expect(firstDifference == nil, "\(name): word \(firstDifference?.offset ?? 0) was \(firstDifference?.element.0 ?? "") and is \(firstDifference?.element.1 ?? "")")
            // The layout counts the same words as this list.
            let fonts = try SceneFixtures.fonts
            let layout = try TextLayout(text: after, style: TextStyle(fontFamily: "Noto Sans", fontSize: 48),
                                        columnWidth: 1536, fonts: fonts)
            layout.layoutAll()
            #expect(layout.wordCount == new.count)
        }
    }

    /// The exception the README names: UAX #14 allows no break after an opening
    /// bracket even across spaces, so a line ending in "(" joins the next line's word.
    @Test func aLineEndingInAnOpeningBracketIsTheOneException() {
        #expect(Self.words("see the notes (\nbelow) now") == ["see", "the", "notes", "(", "below)", "now"])
        #expect(Self.words("see the notes ( below) now") == ["see", "the", "notes", "( below)", "now"])
        #expect(Self.words("see the notes,\nbelow now") == Self.words("see the notes, below now"))
    }

    /// The kiosk, reading GPL-3.txt with every line kept (as before the rule), is left
    /// deep in the text; restarted with the rule, it shows the same word on the reading line.
    @Test func aKioskRestartedWithJoinedLinesResumesOnTheSameWord() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rig-resume-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("scripts"), withIntermediateDirectories: true)
        let gpl = try String(contentsOfFile: "/usr/share/common-licenses/GPL-3", encoding: .utf8)
        try Data(gpl.utf8).write(to: root.appendingPathComponent("scripts/GPL-3.txt"))
        func config(_ lineBreaks: String) -> RigConfig {
            let loaded = ConfigLoader.load(text: "", name: "test", overrides: [
                "state.dir=\"\(root.path)\"", "control.socket=\"\(root.path)/control.sock\"",
                "displays.headless_width=960", "displays.headless_height=540", "prompter.font_size=32",
                "prompter.line_breaks=\(lineBreaks)",
            ])
            #expect(loaded.errors.isEmpty, "\(loaded.errors)")
            return loaded.config
        }
        func run(_ app: KioskApp, until condition: () -> Bool) {
            let deadline = app.loop.clock() + 20
            while !condition() && app.loop.clock() < deadline { app.loop.runOnce(timeout: 0.02) }
            #expect(condition(), "condition not reached in 20 s")
        }

        let before = try KioskApp(config: config("keep"), configProblems: [], backend: .headless, devices: [])
        before.start()
        run(before) { before.displaysBackend.status(of: .outer).flips > 0 && before.stage.renderer.readingText?.layout?.isComplete == true }
        let oldLayout = try #require(before.stage.renderer.readingText?.layout)
        // Line 400 of the kept lines: well past where the two layouts line up.
        let oldOffset = oldLayout.y(ofLine: 400)
        before.stage.controller.seek(to: oldOffset, at: before.loop.clock())
        let word = try #require(before.stage.renderer.wordIndex(atOffset: oldOffset))
        let oldText = try #require(before.stage.controller.script?.text)
        before.shutdown()

        let after = try KioskApp(config: config("auto"), configProblems: [], backend: .headless, devices: [])
        after.start()
        defer { after.shutdown() }
        run(after) { after.displaysBackend.status(of: .outer).flips > 0 && after.stage.controller.engine.offset(at: after.loop.clock()) > 0 }
        let newText = try #require(after.stage.controller.script?.text)
        #expect(newText != oldText)
        let newLayout = try #require(after.stage.renderer.readingText?.layout)
        let newOffset = after.stage.controller.engine.offset(at: after.loop.clock())
        #expect(abs(newOffset - oldOffset) > newLayout.lineHeight, "the joined text is shorter: the word moved up")
        let line = newLayout.lines[newLayout.lineIndex(atY: newOffset)]
        #expect(line.wordStartsBefore <= word && word < line.wordStartsThrough,
                "word \(word) is not on the reading line (\(line.wordStartsBefore)..<\(line.wordStartsThrough))")
        let oldWords = Self.words(oldText), newWords = Self.words(newText)
        #expect(oldWords[word] == newWords[word])
    }
}
