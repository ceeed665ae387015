import Testing
@testable import Render

@Suite struct BidiAndFallbackTests {
    let fonts: FontLibrary
    let style = TextStyle(fontFamily: "Noto Sans", fontSize: 40)

    init() throws { fonts = try FontLibrary() }

    /// Mean x of the glyphs drawn for the scalars in `range`.
    private func x(of range: Range<Int>, in line: LaidOutLine) -> Float? {
        let xs = line.glyphs.filter { range.contains(Int($0.textOffset)) }.map(\.x)
        return xs.isEmpty ? nil : xs.reduce(0, +) / Float(xs.count)
    }

    @Test func rightToLeftParagraphReadsFromTheRight() throws {
        let s = "שלום עולם"   // "shalom" (0..<4), "olam" (5..<9)
        let column = 1000.0
        let layout = try TextLayout(text: s, style: style, columnWidth: column, fonts: fonts)
        let line = try #require(layout.line(at: 0))
        #expect(line.isRTL)
        let first = try #require(x(of: 0..<4, in: line)), second = try #require(x(of: 5..<9, in: line))
        #expect(first > second)
        // Start-aligned: the line ends at the column's right edge.
        let last = try #require(line.glyphs.last)
        #expect(abs(Double(last.x) - line.left - line.width) < line.width)
        #expect(abs(line.left + line.width - column) < 1)
    }

    @Test func mixedDirectionRunsInRightToLeftParagraph() throws {
        let s = "שלום abc def עולם"   // shalom 0..<4, abc 5..<8, def 9..<12, olam 13..<17
        let layout = try TextLayout(text: s, style: style, columnWidth: 1200, fonts: fonts)
        let line = try #require(layout.line(at: 0))
        #expect(line.isRTL)
        let shalom = try #require(x(of: 0..<4, in: line)), abc = try #require(x(of: 5..<8, in: line))
        let def = try #require(x(of: 9..<12, in: line)), olam = try #require(x(of: 13..<17, in: line))
        #expect(olam < abc && abc < def && def < shalom)
        // Inside the Latin run the letters keep reading left to right.
        let a = line.glyphs.first { $0.textOffset == 5 }, c = line.glyphs.first { $0.textOffset == 7 }
        #expect((a?.x ?? 0) < (c?.x ?? 0))
    }

    @Test func hebrewWordsInsideLeftToRightParagraph() throws {
        let s = "one שלום עולם two"   // one 0..<3, shalom 4..<8, olam 9..<13, two 14..<17
        let layout = try TextLayout(text: s, style: style, columnWidth: 1200, fonts: fonts)
        let line = try #require(layout.line(at: 0))
        #expect(!line.isRTL)
        #expect(abs(line.left) < 1)
        let one = try #require(x(of: 0..<3, in: line)), shalom = try #require(x(of: 4..<8, in: line))
        let olam = try #require(x(of: 9..<13, in: line)), two = try #require(x(of: 14..<17, in: line))
        #expect(one < olam && olam < shalom && shalom < two)
    }

    @Test(arguments: [
        ("漢字とかな", "Noto Sans CJK"), ("مرحبا بالعالم", "Noto Sans Arabic"), ("שלום", "Noto Sans Hebrew"),
        ("😀🍎", "Noto Color Emoji"),
    ])
    func fallbackFindsGlyphs(text: String, familyPart: String) throws {
        let layout = try TextLayout(text: "Hi " + text, style: style, columnWidth: 1500, fonts: fonts)
        let line = try #require(layout.line(at: 0))
        #expect(!line.glyphs.isEmpty)
        #expect(line.glyphs.allSatisfy { $0.glyphID != 0 }, "a .notdef glyph in \(text)")
        let foreign = line.glyphs.filter { $0.textOffset >= 3 }
        #expect(!foreign.isEmpty)
        for glyph in foreign {
            #expect(fonts.typeface(glyph.typeface).familyName.contains(familyPart))
        }
        let latin = line.glyphs.filter { $0.textOffset < 2 }
        #expect(latin.allSatisfy { fonts.typeface($0.typeface).familyName == "Noto Sans" })
    }

    @Test func spaceAfterEmojiComesFromTheTextFont() throws {
        let layout = try TextLayout(text: "😀 a", style: style, columnWidth: 800, fonts: fonts)
        let line = try #require(layout.line(at: 0))
        let space = try #require(line.glyphs.first { $0.textOffset == 1 })
        #expect(fonts.typeface(space.typeface).familyName == "Noto Sans")
        let a = try #require(line.glyphs.first { $0.textOffset == 2 })
        #expect(a.x - space.x < 20)
    }

    @Test func emojiSequenceStaysOneGlyph() throws {
        // Family (man ZWJ woman ZWJ girl) and a flag: one colour glyph each.
        let layout = try TextLayout(text: "👨‍👩‍👧🇩🇪", style: style, columnWidth: 800, fonts: fonts)
        let line = try #require(layout.line(at: 0))
        #expect(line.glyphs.count == 2)
        #expect(line.glyphs.allSatisfy { fonts.typeface($0.typeface).isColorBitmap && $0.glyphID != 0 })
    }
}

@Suite struct UnsafeBreakTests {
    @Test func lineBrokenInsideAnArabicWordIsReshapedOnItsOwn() throws {
        let fonts = try FontLibrary()
        let style = TextStyle(fontFamily: "Noto Sans", fontSize: 40)
        let s = String(repeating: "مرحبا", count: 40)   // one joined word of 200 letters
        let layout = try TextLayout(text: s, style: style, columnWidth: 400, fonts: fonts)
        layout.layoutAll()
        #expect(layout.lineCount > 3)
        let scalars = Array(s.unicodeScalars)
        for line in layout.lines {
            // Across a forced break the letters would join; each line must instead be
            // shaped as the text it shows (final and initial forms at its ends).
            let text = String(String.UnicodeScalarView(scalars[line.textRange]))
            let alone = try #require(fonts.layoutLabel(text, style: style).first)
            #expect(line.glyphs.map(\.glyphID) == alone.glyphs.map(\.glyphID))
            #expect(line.isRTL)
        }
    }
}
