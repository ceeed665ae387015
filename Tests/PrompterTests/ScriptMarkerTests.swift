import Foundation
import Testing
@testable import Prompter

/// Named markers from Markdown headings and the plain-text sign, and the operator's
/// markers kept in the state folder.
@Suite struct ScriptMarkerTests {
    func marked(_ text: String, at marker: ScriptMarker) -> String {
        let scalars = Array(text.unicodeScalars)
        var line = String.UnicodeScalarView()
        line.append(contentsOf: scalars[marker.textOffset...].prefix { $0 != "\n" })
        return String(line)
    }

    @Test func markdownHeadingsAreNamedMarkersAtTheirLine() throws {
        let dir = TemporaryDirectory()
        dir.write("Talk.md", Array("""
            Welcome everyone.
            A second line of the intro.

            # Part *one*

            Text of part one  
            with a hard break.

            Setext part
            -----------
            Last words.
            """.utf8))
        let library = try ScriptLibrary(root: dir.url)
        let script = try library.readScript(id: "Talk.md")
        #expect(script.markers.map(\.name) == ["Part one", "Setext part"])
        for marker in script.markers {
            #expect(marked(script.readingText, at: marker) == marker.name)
        }
    }

    @Test func plainTextLinesWithTheSignAreMarkersAndLoseTheSign() throws {
        let dir = TemporaryDirectory()
        let long = String(repeating: "word ", count: 14)
        dir.write("News.txt", Array("""
            >> Opening
            \(long)
            \(long)
            \(long)
              >>  Weather
            \(long)
            \(long)
            \(long)
            """.utf8))
        let library = try ScriptLibrary(root: dir.url)
        let script = try library.readScript(id: "News.txt")
        #expect(script.markers.map(\.name) == ["Opening", "Weather"])
        #expect(!script.readingText.contains(">>"))
        #expect(script.markers[0].textOffset == 0)
        for marker in script.markers {
            #expect(marked(script.readingText, at: marker) == marker.name)
        }
        // The hard-wrapped paragraphs between are still joined, and not into the marker.
        #expect(script.readingText.components(separatedBy: "\n").count == 4)
    }

    @Test func plainTextWithoutTheSignIsUnchanged() {
        let text = "one\ntwo > three\n>not a marker"
        let converted = ScriptLibrary.readingTextAndMarkers(text, format: .plainText, lineBreaks: .keep)
        #expect(converted.text == text)
        #expect(converted.markers.isEmpty)
    }

    @Test func operatorMarkersAreKeptAndFoundAgainAfterAnEdit() throws {
        let dir = TemporaryDirectory()
        let text = "First line.\nSecond line here.\nThird line."
        let store = MarkerStore(directory: dir.url)
        try store.add(scriptID: "a.txt", textOffset: 12, readingText: text)
        try store.add(scriptID: "a.txt", textOffset: 12, readingText: text)
        let reloaded = MarkerStore(directory: dir.url)
        #expect(reloaded.markers(for: "a.txt", in: text) == [ScriptMarker(name: nil, textOffset: 12)])
        // Text inserted above moves the place; the context finds it.
        let edited = "A new first line.\n" + text
        #expect(reloaded.markers(for: "a.txt", in: edited).map(\.textOffset) == [12 + 18])
        try reloaded.move(from: "a.txt", to: "Folder/a.txt")
        #expect(MarkerStore(directory: dir.url).markers(for: "Folder/a.txt", in: text).count == 1)
        try reloaded.clear(scriptID: "Folder/a.txt")
        #expect(MarkerStore(directory: dir.url).markers(for: "Folder/a.txt", in: text).isEmpty)
    }
}
