import Testing
@testable import Render

@Suite struct LineBreakingTests {
    let fonts: FontLibrary
    let style = TextStyle(fontFamily: "Liberation Sans", fontSize: 40)

    init() throws { fonts = try FontLibrary() }

    private func width(_ s: String) -> Double {
        fonts.layoutLabel(s, style: style).first?.width ?? 0
    }

    private func text(of line: LaidOutLine, in s: String) -> String {
        let scalars = Array(s.unicodeScalars)[line.textRange]
        return String(String.UnicodeScalarView(scalars))
    }

    @Test func breaksAtSpacesAndAfterHyphens() throws {
        let s = "aaa bbb-ccc ddd"
        // Room for "aaa bbb-" but not for "aaa bbb-ccc": UAX #14 allows a break after
        // the hyphen, so the line ends there rather than before "bbb".
        let column = width("aaa bbb-") + 1
        #expect(column < width("aaa bbb-ccc"))
        let layout = try TextLayout(text: s, style: style, columnWidth: column, fonts: fonts)
        layout.layoutAll()
        #expect(layout.lines.map { text(of: $0, in: s) } == ["aaa bbb-", "ccc ddd"])
        for line in layout.lines { #expect(line.width <= column) }
    }

    @Test func wrapsProseGreedilyWithinTheColumn() throws {
        let words = (0..<120).map { ["tele", "prompter", "reads", "a", "script", "aloud"][$0 % 6] }
        let s = words.joined(separator: " ")
        let column = 500.0
        let layout = try TextLayout(text: s, style: style, columnWidth: column, fonts: fonts)
        layout.layoutAll()
        #expect(layout.lineCount > 5)
        for (i, line) in layout.lines.enumerated() {
            #expect(line.width <= column)
            let lineText = text(of: line, in: s)
            #expect(!lineText.hasPrefix(" "))
            // Greedy: the next line's first word would not have fitted on this one.
            if i + 1 < layout.lineCount {
                let next = text(of: layout.lines[i + 1], in: s).split(separator: " ").first.map(String.init) ?? ""
                #expect(line.width + width(" " + next) > column - 1)
            }
        }
    }

    @Test func endlessWordIsForceBrokenNotOverflowing() throws {
        let s = String(repeating: "x", count: 500)
        let column = 300.0
        let layout = try TextLayout(text: s, style: style, columnWidth: column, fonts: fonts)
        layout.layoutAll()
        #expect(layout.lineCount > 5)
        #expect(layout.lines.allSatisfy { $0.width <= column && !$0.glyphs.isEmpty })
        #expect(layout.lines.reduce(0) { $0 + $1.glyphs.count } == 500)
        // Every forced line but the last is full: one more "x" would overflow it.
        let x = width("x")
        for line in layout.lines.dropLast() { #expect(line.width + x > column) }
    }

    @Test func blankLinesAndCRLFMakeParagraphs() throws {
        let layout = try TextLayout(text: "one\r\n\r\ntwo\nthree", style: style, columnWidth: 800, fonts: fonts)
        layout.layoutAll()
        #expect(layout.lineCount == 4)
        #expect(layout.lines[1].glyphs.isEmpty)
        #expect(layout.lines.map(\.y) == [0, 1, 2, 3].map { Double($0) * layout.lineHeight })
    }

    @Test func lineSpacingScalesTheLinePitch() throws {
        let single = try TextLayout(text: "a", style: style, columnWidth: 800, fonts: fonts)
        var wide = style
        wide.lineSpacing = 2
        let double = try TextLayout(text: "a", style: wide, columnWidth: 800, fonts: fonts)
        #expect(abs(double.lineHeight - 2 * single.lineHeight) <= 1)
        #expect(single.lineHeight >= 40)
    }
}

@Suite struct EndlessInputTests {
    @Test func hugeSpacelessTextShowsItsFirstScreenEarly() throws {
        let fonts = try FontLibrary()
        let s = String(repeating: "Teleprompter", count: 5000)   // 60,000 letters, no break opportunity
        let layout = try TextLayout(text: s, style: TextStyle(fontSize: 60), columnWidth: 1000, fonts: fonts)
        layout.ensureLaidOut(throughY: 1000)
        #expect(!layout.isComplete)
        let firstScreenLines = layout.lineCount
        layout.layoutAll()
        #expect(firstScreenLines * 5 < layout.lineCount)
        #expect(layout.lines.reduce(0) { $0 + $1.glyphs.count } == 60_000)
        #expect(layout.lines.allSatisfy { $0.width <= 1000 })
        // Lines follow each other without gaps, and all but the last are full.
        for (i, line) in layout.lines.enumerated().dropFirst() {
            #expect(line.textRange.lowerBound == layout.lines[i - 1].textRange.upperBound)
        }
        #expect(layout.lines.dropLast().allSatisfy { $0.width > 1000 - 60 })
        #expect(layout.wordCount == 1)
        #expect(layout.lines.allSatisfy { $0.firstWordIndex == 0 })
    }
}
