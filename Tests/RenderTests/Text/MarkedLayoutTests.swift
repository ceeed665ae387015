import Foundation
import Markup
import Testing
@testable import Render

/// The layout of a marked script (issue 42): strong and emphasis in the family's own
/// bold and italic faces, directions in their ink, highlights as runs, alignment, and
/// every word number the same as without marks.
@Suite struct MarkedLayoutTests {
    let fonts: FontLibrary

    init() throws { fonts = try FontLibrary() }

    private func offsets(of word: String, in text: String) -> Range<Int> {
        let scalars = Array(text.unicodeScalars), target = Array(word.unicodeScalars)
        for start in 0...(scalars.count - target.count) where Array(scalars[start..<(start + target.count)]) == target {
            return start..<(start + target.count)
        }
        return 0..<0
    }

    private func glyphs(in range: Range<Int>, of layout: TextLayout) -> [PositionedGlyph] {
        layout.layoutAll()
        return layout.lines.flatMap(\.glyphs).filter { range.contains(Int($0.textOffset)) }
    }

    private func faceFile(_ glyph: PositionedGlyph) -> String {
        (fonts.typeface(glyph.typeface).path as NSString).lastPathComponent
    }

    @Test func strongAndEmphasisUseTheFamilysBoldAndItalicFiles() throws {
        let text = "A stressed word and a change of tone and both here."
        let markup = ReadingMarkup(spans: [.init(offsets(of: "stressed", in: text), .strong),
                                           .init(offsets(of: "change of tone", in: text), .emphasis),
                                           .init(offsets(of: "both", in: text), [.strong, .emphasis])])
        for (family, bold, italic, boldItalic) in [
            ("Noto Sans", "NotoSans-Bold.ttf", "NotoSans-Italic.ttf", "NotoSans-BoldItalic.ttf"),
            ("Liberation Serif", "LiberationSerif-Bold.ttf", "LiberationSerif-Italic.ttf",
             "LiberationSerif-BoldItalic.ttf"),
            // DejaVu Sans Mono's slanted faces are obliques, drawn so by its designers.
            ("DejaVu Sans Mono", "DejaVuSansMono-Bold.ttf", "DejaVuSansMono-Oblique.ttf",
             "DejaVuSansMono-BoldOblique.ttf"),
        ] {
            let layout = try TextLayout(text: text, markup: markup, style: TextStyle(fontFamily: family, fontSize: 40),
                                        columnWidth: 3000, fonts: fonts)
            #expect(Set(glyphs(in: offsets(of: "stressed", in: text), of: layout).map(faceFile)) == [bold], "\(family)")
            #expect(Set(glyphs(in: offsets(of: "change of tone", in: text), of: layout).map(faceFile)) == [italic])
            #expect(Set(glyphs(in: offsets(of: "both", in: text), of: layout).map(faceFile)) == [boldItalic])
            let plainFaces = Set(glyphs(in: offsets(of: "word", in: text), of: layout).map(faceFile))
            #expect(plainFaces.count == 1 && !plainFaces.contains(bold))
        }
    }

    @Test func aSpanAcrossWrappedLinesAndAcrossALongParagraphsBlocksIsMarkedOnEveryLine() throws {
        // One paragraph of ~9,000 scalars: the layout cuts it into blocks of about 2,048
        // (ScriptText.blockEnd); the bold span covers a stretch across the first cut.
        let words = (0..<1500).map { "w\($0 % 97)" }
        let text = words.joined(separator: " ")
        let span = 1900..<2600
        let markup = ReadingMarkup(spans: [.init(span, .strong)])
        let layout = try TextLayout(text: text, markup: markup, style: TextStyle(fontSize: 30), columnWidth: 500,
                                    fonts: fonts)
        let plain = try TextLayout(text: text, style: TextStyle(fontSize: 30), columnWidth: 500, fonts: fonts)
        layout.layoutAll()
        plain.layoutAll()
        let boldID = try fonts.markedTypeface(for: TextStyle(fontSize: 30), strong: true, italic: false).id
        let marked = layout.lines.filter { line in line.glyphs.contains { span.contains(Int($0.textOffset)) } }
        #expect(marked.count > 3, "the span wraps over several lines")
        for line in layout.lines {
            for glyph in line.glyphs where glyph.textOffset >= 0 && text.unicodeScalars[
                text.unicodeScalars.index(text.unicodeScalars.startIndex, offsetBy: Int(glyph.textOffset))] != " " {
                #expect((glyph.typeface == boldID) == span.contains(Int(glyph.textOffset)), "offset \(glyph.textOffset)")
            }
        }
        // Bold is wider, so lines break elsewhere, but every word keeps its number.
        for word in stride(from: 0, to: 1500, by: 37) {
            let line = layout.lineIndex(atY: layout.y(ofWord: word))
            #expect(layout.lines[line].wordStartsBefore <= word && word < layout.lines[line].wordStartsThrough)
        }
        #expect(layout.wordCount == plain.wordCount)
    }

    @Test func directionsTakeTheirInkAndHighlightsBecomeRunsBehindTheirWords() throws {
        let text = "Hello [PAUSE] and a marked phrase here."
        let direction = offsets(of: "[PAUSE]", in: text), highlight = offsets(of: "marked phrase", in: text)
        let layout = try TextLayout(text: text, markup: ReadingMarkup(spans: [.init(direction, .direction),
                                                                           .init(highlight, .highlight)]),
                                    style: TextStyle(fontSize: 40), columnWidth: 3000, fonts: fonts)
        let line = try #require(layout.line(at: 0))
        for glyph in line.glyphs {
            #expect((glyph.ink == PositionedGlyph.Ink.direction) == direction.contains(Int(glyph.textOffset)))
        }
        let marked = glyphs(in: highlight, of: layout)
        #expect(line.highlights.count == 1)
        let run = try #require(line.highlights.first)
        #expect(abs(run.x - (marked.first?.x ?? 0)) < 1)
        #expect(run.x + run.width > (marked.last?.x ?? 0))
        #expect(run.x + run.width < (glyphs(in: offsets(of: "here", in: text), of: layout).first?.x ?? 0))
    }

    @Test func alignmentPlacesLinesAndMirrorsForRightToLeft() throws {
        let column = 1000.0
        func line(_ text: String, _ alignment: TextAlignment) throws -> LaidOutLine {
            let layout = try TextLayout(text: text, style: TextStyle(fontSize: 40, alignment: alignment),
                                        columnWidth: column, fonts: fonts)
            return try #require(layout.line(at: 0))
        }
        let english = "A short line", hebrew = "שורה קצרה"
        let left = try line(english, .left), centre = try line(english, .centre), right = try line(english, .right)
        #expect(left.left == 0)
        #expect(abs(centre.left - (column - centre.width) / 2) <= 1)
        #expect(abs(right.left + right.width - column) < 0.5)
        // Centred lines move by whole pixels: their glyphs keep the edge's sub-pixel phases.
        #expect(zip(left.glyphs, centre.glyphs).allSatisfy { ($1.x - $0.x) == ($1.x - $0.x).rounded() })
        // Right to left: "left" is where the line starts, at the right edge.
        let rtlLeft = try line(hebrew, .left), rtlRight = try line(hebrew, .right)
        #expect(rtlLeft.isRTL)
        #expect(abs(rtlLeft.left + rtlLeft.width - column) < 0.5)
        #expect(rtlRight.left == 0)
    }

    @Test func aMissingWeightUsesTheNearestFaceAndSaysSo() throws {
        #expect(fonts.weightNote(for: TextStyle(weight: FontWeight.regular)) == nil)
        #expect(fonts.weightNote(for: TextStyle(weight: FontWeight.bold)) == nil)
        let semibold = TextStyle(fontFamily: "Noto Sans", weight: FontWeight.semibold)
        #expect(fonts.weightNote(for: semibold) == "Noto Sans has no semibold face here: bold is used")
        let (face, _) = try fonts.primaryTypeface(for: semibold)
        #expect(face.path.hasSuffix("NotoSans-Bold.ttf"))
        let (medium, _) = try fonts.primaryTypeface(for: TextStyle(weight: FontWeight.medium))
        #expect(medium.path.hasSuffix("NotoSans-Regular.ttf"))
    }
}
