import Foundation
import Prompter
@testable import Render
import Stage
import Testing
@testable import Kiosk

/// The talent's lines break where the layout wraps them, not where the file did
/// (issue 15): the GPL, hard-wrapped at 72 columns, on a 1920-wide outer display at
/// 48 px, as a `.txt` and as a `.md` script read through the library as the kiosk reads
/// it. A line "ends short" when its ink stops before half the text column; all text
/// lines count, paragraph ends too (they are the only honestly short ones left).
@Suite(.serialized) struct RaggedLineTests {
    static let display = PixelSize(width: 1920, height: 1080)
    static let gpl = "/usr/share/common-licenses/GPL-3"

    static func settings(fontSize: Int) -> ReadingSettings {
        var settings = ReadingSettings(config: RigConfig.Prompter())
        settings.fontSize = fontSize
        return settings
    }

    /// Opens `name` (holding `source`) from a library as the kiosk does.
    static func readingText(_ source: String, name: String, lineBreaks: LineBreaks = .auto) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rig-ragged-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let library = try ScriptLibrary(root: root, lineBreaks: lineBreaks)
        try Data(source.utf8).write(to: root.appendingPathComponent(name))
        library.refresh()
        return try library.readScript(id: name).readingText
    }

    struct Measure: CustomStringConvertible {
        var textLines = 0
        var short = 0
        var fraction: Double { textLines == 0 ? 0 : Double(short) / Double(textLines) }
        var description: String { "\(short) of \(textLines) text lines end before half the column (\(Int((fraction * 100).rounded())) %)" }
    }

    /// From the layout: lines with glyphs, and those whose width is under half the column.
    static func measureLayout(_ layout: TextLayout) -> Measure {
        layout.layoutAll()
        var measure = Measure()
        for line in layout.lines where !line.glyphs.isEmpty {
            measure.textLines += 1
            if line.width < layout.columnWidth / 2 { measure.short += 1 }
        }
        return measure
    }

    /// From the pixels of composed outer frames, screen by screen down the whole text:
    /// for each laid-out line's rows, where its ink ends. Consecutive screens overlap by
    /// two lines so that every line is seen whole on one of them.
    static func measurePixels(_ replay: ManualClockStage) throws -> Measure {
        let layout = try #require(replay.stage.renderer.readingText?.layout)
        layout.layoutAll()
        replay.finishLayout()
        let canvas = try Canvas(size: display)
        let readingRow = ReadingMarker.readingRow(viewportHeight: display.height, position: replay.stage.settings.markerPosition)
        let textWidth = Int(layout.columnWidth)
        let inset = (display.width - textWidth) / 2
        let lineHeight = Int(layout.lineHeight)
        let step = display.height - 2 * lineHeight
        var measure = Measure()
        var nextLine = 0
        var top = 0
        while nextLine < layout.lines.count {
            replay.controller.pause(at: replay.clock.now)
            replay.controller.seek(to: Double(top + readingRow), at: replay.clock.now)
            replay.frame(.outer, at: replay.clock.now, into: canvas)
            while nextLine < layout.lines.count {
                let line = layout.lines[nextLine]
                let rows = (Int(line.y) - top)..<(Int(line.y) - top + lineHeight)
                guard rows.upperBound <= display.height else { break }
                var inkEnd: Int?
                for y in rows where y >= 0 {
                    // Only the text column (and a little overhang): the reading marker's
                    // arrows sit in the margins.
                    let columnEnd = min(display.width, inset + textWidth + lineHeight / 4)
                    for x in stride(from: columnEnd - 1, through: inset, by: -1) where inkEnd.map({ x > $0 }) ?? true {
                        let pixel = canvas.pixels[y * display.width + x]
                        // The reading band tints the background; ink is far brighter.
                        if (pixel >> 8) & 0xff > 128 { inkEnd = x; break }
                    }
                }
                if let inkEnd {
                    measure.textLines += 1
                    if inkEnd < inset + textWidth / 2 { measure.short += 1 }
                }
                nextLine += 1
            }
            top += step
        }
        return measure
    }

    @Test(arguments: ["GPL-3.txt", "GPL-3.md"])
    func gplAt48PixelsHasFewShortLines(name: String) throws {
        let source = try String(contentsOfFile: Self.gpl, encoding: .utf8)
        let fonts = try SceneFixtures.fonts
        let settings = Self.settings(fontSize: 48)
        let text = try Self.readingText(source, name: name)
        let composer = try SceneFixtures.playing(text, settings: settings, display: Self.display, fonts: fonts)
        let layout = try #require(composer.stage.renderer.readingText?.layout)
        #expect(layout.columnWidth == 1536)
        let fromLayout = Self.measureLayout(layout)
        let fromPixels = try Self.measurePixels(composer)
        print("\(name) at 48 px on 1920: layout \(fromLayout); pixels \(fromPixels)")
        #expect(fromLayout.fraction <= 0.25, "\(name): \(fromLayout)")
        #expect(fromPixels.fraction <= 0.25, "\(name): \(fromPixels)")
        // What is measured is what is shown.
        #expect(fromPixels.textLines == fromLayout.textLines)
        #expect(abs(fromPixels.short - fromLayout.short) <= 1)

        // The same measure fails on the file's own line breaks (the 40 %), so
        // it passes above because the lines were joined, not because it cannot fail
        // (the issue measured 40 %; this layout's count is lower, still well over).
        let kept = name.hasSuffix(".md")
            ? try Self.readingText(source.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : $0 + "  " }.joined(separator: "\n"), name: name)   // every newline a hard break
            : try Self.readingText(source, name: name, lineBreaks: .keep)
        let before = try TextLayout(text: kept, style: layout.style, columnWidth: layout.columnWidth, fonts: fonts)
        let beforeMeasure = Self.measureLayout(before)
        print("\(name) with the file's line breaks: layout \(beforeMeasure)")
        #expect(beforeMeasure.fraction > 0.25, "\(name) before: \(beforeMeasure)")
    }

    /// The example script: a line inside a paragraph ends only where the next word
    /// would not have fitted, on the rig's largest and smallest outer displays.
    @Test(arguments: [(PixelSize(width: 1920, height: 1080), 48), (PixelSize(width: 1024, height: 768), 64)])
    func welcomeScriptWrapsOnlyAtTheColumn(display: PixelSize, fontSize: Int) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples/scripts/Welcome.md").path
        let source = try String(contentsOfFile: path, encoding: .utf8)
        let text = try Self.readingText(source, name: "Welcome.md")
        let (inner, ragged) = try Self.raggedLines(text, display: display, fontSize: fontSize)
        #expect(inner >= 3, "the paragraphs wrap at \(display.width) px")
        #expect(ragged.isEmpty, "\(ragged)")
        // With the file's newlines as breaks (the old reading) the check finds them.
        let hard = source.split(separator: "\n", omittingEmptySubsequences: false).map { $0 + "  " }.joined(separator: "\n")
        #expect(try !Self.raggedLines(try Self.readingText(hard, name: "Welcome.md"), display: display, fontSize: fontSize)
            .ragged.isEmpty)
    }

    /// The example script as the talent sees it a few seconds into the take: whole
    /// paragraphs wrapped at the column (no reference image showed it before).
    @Test func welcomeScriptMatchesItsReference() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples/scripts/Welcome.md").path
        let text = try Self.readingText(try String(contentsOfFile: path, encoding: .utf8), name: "Welcome.md")
        let composer = try SceneFixtures.playing(text, settings: SceneFixtures.settings(fontSize: 32, margin: 8),
                                                 display: PixelSize(width: 960, height: 540), fonts: try SceneFixtures.fonts)
        try SceneReferenceImage.expectMatch(try SceneFixtures.outer(composer, at: 5), named: "outer-welcome-example")
    }

    /// Lines inside a paragraph (their paragraph goes on on the next line), and those of
    /// them that end though the next line's first word would have fitted.
    static func raggedLines(_ text: String, display: PixelSize, fontSize: Int) throws -> (inner: Int, ragged: [String]) {
        let composer = try SceneFixtures.playing(text, settings: Self.settings(fontSize: fontSize), display: display,
                                                 fonts: try SceneFixtures.fonts)
        let layout = try #require(composer.stage.renderer.readingText?.layout)
        layout.layoutAll()
        let scalars = layout.script.scalars
        var inner = 0
        var ragged: [String] = []
        for (line, next) in zip(layout.lines, layout.lines.dropFirst()) where !line.glyphs.isEmpty && !next.glyphs.isEmpty {
            inner += 1
            // The next line's first word: its glyphs up to the first space.
            let space = next.textRange.first { scalars[$0] == 0x20 }
            let wordEnd = space.flatMap { s in next.glyphs.filter { Int($0.textOffset) >= s }.map(\.x).min() }
            let nextWord = wordEnd.map(Double.init) ?? next.width
            let spaceWidth = Double(fontSize) * 0.3
            if line.width + spaceWidth + nextWord <= layout.columnWidth {
                ragged.append("a line ends at \(Int(line.width)) of \(Int(layout.columnWidth)) px though the next word (\(Int(nextWord)) px) fitted")
            }
        }
        return (inner, ragged)
    }
}
