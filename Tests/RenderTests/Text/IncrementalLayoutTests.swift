import Testing
@testable import Render

@Suite struct IncrementalLayoutTests {
    let fonts: FontLibrary
    static let vocabulary = ["the", "quick", "teleprompter", "scrolls", "every", "word", "of", "a", "script",
                             "while", "talent", "reads", "it", "aloud", "to", "camera"]

    init() throws { fonts = try FontLibrary() }

    static func words(_ count: Int) -> [String] {
        (0..<count).map { vocabulary[($0 * 7 + $0 / 3) % vocabulary.count] }
    }

    /// Scalar offset of each space-separated word: for this ASCII text the UAX #14
    /// segments are exactly the words.
    static func wordOffsets(_ s: String) -> [Int] {
        var offsets: [Int] = []
        var previous: Unicode.Scalar = " "
        for (i, scalar) in s.unicodeScalars.enumerated() {
            if scalar != " " && scalar != "\n" && (previous == " " || previous == "\n") { offsets.append(i) }
            previous = scalar
        }
        return offsets
    }

    @Test func firstScreenComesBeforeTheRest() throws {
        let paragraphs = (0..<200).map { _ in Self.words(60).joined(separator: " ") }
        let layout = try TextLayout(text: paragraphs.joined(separator: "\n"),
                                    style: TextStyle(fontSize: 60), columnWidth: 1200, fonts: fonts)
        #expect(layout.lineCount == 0)
        layout.ensureLaidOut(throughY: 1080)
        let firstScreen = layout.lines
        #expect(!layout.isComplete)
        #expect(Double(firstScreen.count) * layout.lineHeight > 1080)
        #expect(firstScreen.count < 60)
        #expect(layout.totalHeight > 20 * 1080)
        layout.layoutAll()
        #expect(layout.isComplete)
        #expect(layout.lineCount > 10 * firstScreen.count)
        #expect(layout.lines.prefix(firstScreen.count).map(\.glyphs) == firstScreen.map(\.glyphs))
        #expect(layout.wordCount == 200 * 60)
    }

    @Test func oneEndlessParagraphIsLaidOutInBlocksWithoutRaggedSeams() throws {
        let s = Self.words(3000).joined(separator: " ")
        let style = TextStyle(fontFamily: "Liberation Serif", fontSize: 50)
        let column = 1400.0
        let layout = try TextLayout(text: s, style: style, columnWidth: column, fonts: fonts)
        layout.ensureLaidOut(throughY: 1000)
        #expect(!layout.isComplete)
        #expect(layout.lineCount < 60)
        layout.layoutAll()
        let offsets = Self.wordOffsets(s)
        var widths: [String: Double] = [:]
        for (i, line) in layout.lines.enumerated() {
            #expect(line.width <= column)
            // Lines start at words and follow on without gaps or overlaps.
            #expect(offsets.contains(line.textRange.lowerBound))
            if i > 0 { #expect(line.textRange.lowerBound == layout.lines[i - 1].textRange.upperBound) }
            guard i + 1 < layout.lineCount else { continue }
            let next = layout.lines[i + 1].firstWordIndex
            let word = Self.words(3000)[next]
            let w = widths[word] ?? fonts.layoutLabel(" " + word, style: style).first?.width ?? 0
            widths[word] = w
            #expect(line.width + w > column - 1, "line \(i) is short: a block seam left it ragged")
        }
        #expect(layout.wordCount == 3000)
    }

    @Test func wordAnchorKeepsTheReadingPositionAcrossStyles() throws {
        let s = (0..<30).map { _ in Self.words(40).joined(separator: " ") }.joined(separator: "\n")
        let offsets = Self.wordOffsets(s)
        let small = try TextLayout(text: s, style: TextStyle(fontFamily: "Noto Sans", fontSize: 40),
                                   columnWidth: 1000, fonts: fonts)
        let large = try TextLayout(text: s, style: TextStyle(fontFamily: "Noto Serif", fontSize: 90, lineSpacing: 1.5),
                                   columnWidth: 700, fonts: fonts)
        for probeLine in [0, 7, 33, 80] {
            let word = small.wordIndex(atY: small.y(ofLine: probeLine) + 3)
            let smallLine = try #require(small.line(at: probeLine))
            #expect(offsets[word] == smallLine.textRange.lowerBound)
            let y = large.y(ofWord: word)
            let largeLine = try #require(large.line(at: large.lineIndex(atY: y)))
            #expect(largeLine.textRange.contains(offsets[word]))
            #expect(large.wordIndex(atY: y) <= word)
        }
    }
}

@Suite struct RestyleTests {
    @Test func lineSpacingChangeKeepsGlyphsAndMovesLines() throws {
        let fonts = try FontLibrary()
        let text = (0..<20).map { _ in IncrementalLayoutTests.words(50).joined(separator: " ") }.joined(separator: "\n")
        let layout = try TextLayout(text: text, style: TextStyle(fontSize: 50), columnWidth: 900, fonts: fonts)
        layout.ensureLaidOut(throughY: 800)
        let spaced = layout.withLineSpacing(1.5)
        #expect(spaced.lineCount == layout.lineCount)
        #expect(abs(spaced.lineHeight - 1.5 * layout.lineHeight) <= 1)
        #expect(spaced.lines.map(\.glyphs) == layout.lines.map(\.glyphs))
        #expect(spaced.lines[3].y == 3 * spaced.lineHeight)
        // Laying out the rest of the respaced layout matches a fresh one.
        spaced.layoutAll()
        let fresh = try TextLayout(text: text, style: TextStyle(fontSize: 50, lineSpacing: 1.5), columnWidth: 900,
                                   fonts: fonts)
        fresh.layoutAll()
        #expect(spaced.lines.map(\.glyphs) == fresh.lines.map(\.glyphs))
        #expect(spaced.lines.map(\.y) == fresh.lines.map(\.y))
        #expect(spaced.totalHeight == fresh.totalHeight)
    }
}

extension RestyleTests {
    @Test func columnWidthChangeMatchesAFreshLayout() throws {
        let fonts = try FontLibrary()
        let text = (0..<15).map { i in
            (i % 3 == 2 ? "שלום עולם " : "") + IncrementalLayoutTests.words(70).joined(separator: " ")
        }.joined(separator: "\n")
        let style = TextStyle(fontFamily: "Noto Serif", fontSize: 45)
        let wide = try TextLayout(text: text, style: style, columnWidth: 1400, fonts: fonts)
        wide.layoutAll()
        let narrow = wide.withColumnWidth(600)
        #expect(narrow.lineCount == 0)
        narrow.layoutAll()
        let fresh = try TextLayout(text: text, style: style, columnWidth: 600, fonts: fonts)
        fresh.layoutAll()
        #expect(narrow.lineCount > wide.lineCount)
        #expect(narrow.lines.map(\.glyphs) == fresh.lines.map(\.glyphs))
        #expect(narrow.lines.map(\.textRange) == fresh.lines.map(\.textRange))
        #expect(narrow.lines.map(\.firstWordIndex) == fresh.lines.map(\.firstWordIndex))
        #expect(narrow.lines.allSatisfy { $0.width <= 600 })
    }
}
