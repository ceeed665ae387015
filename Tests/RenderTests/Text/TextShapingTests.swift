import Testing
@testable import Render

@Suite struct TextShapingTests {
    let fonts: FontLibrary

    init() throws { fonts = try FontLibrary() }

    @Test func shapingGivesGlyphsAndAdvances() throws {
        let layout = try TextLayout(text: "Hello", style: TextStyle(fontSize: 40), columnWidth: 1000, fonts: fonts)
        let line = try #require(layout.line(at: 0))
        #expect(line.glyphs.count == 5)
        #expect(line.glyphs.allSatisfy { $0.glyphID != 0 })
        let xs = line.glyphs.map(\.x)
        #expect(xs == xs.sorted())
        #expect(line.width > 40 && line.width < 200)
        #expect(layout.fontWarning == nil)
    }

    @Test func readingFamiliesResolveWithoutWarning() throws {
        for family in TextStyle.readingFamilies {
            let (face, warning) = try fonts.primaryTypeface(for: TextStyle(fontFamily: family, fontSize: 30))
            #expect(warning == nil, "\(family)")
            #expect(face.familyName == family)
        }
    }

    @Test func unknownFamilyFallsBackWithWarning() throws {
        let layout = try TextLayout(text: "Hi", style: TextStyle(fontFamily: "No Such Family 42", fontSize: 30),
                                    columnWidth: 500, fonts: fonts)
        let warning = try #require(layout.fontWarning)
        #expect(warning.requestedFamily == "No Such Family 42")
        #expect(layout.line(at: 0)?.glyphs.count == 2)
    }
}

@Suite struct TextLabelTests {
    @Test func labelsWrapAndStartAtZero() throws {
        let fonts = try FontLibrary()
        let style = TextStyle(fontFamily: "Noto Sans", fontSize: 24)
        let single = fonts.layoutLabel("Paused", style: style)
        #expect(single.count == 1)
        #expect(single[0].glyphs.first?.x == 0)
        let wrapped = fonts.layoutLabel("Script title that is much too long for the badge", style: style, maxWidth: 200)
        #expect(wrapped.count > 1)
        #expect(wrapped.allSatisfy { $0.width <= 200 && abs(Double($0.glyphs.first?.x ?? 1)) < 0.01 })
        #expect(wrapped[1].y == wrapped[0].height)
        let rtl = fonts.layoutLabel("שלום", style: style)
        #expect(rtl[0].isRTL)
        #expect(abs(Double(rtl[0].glyphs.first?.x ?? 1)) < 0.01)
        #expect(abs(Double(rtl[0].glyphs.last?.x ?? 0) - rtl[0].width) < rtl[0].width)
    }
}

@Suite struct WordCacheTests {
    @Test(arguments: ["Noto Sans", "Noto Serif", "DejaVu Sans Mono", "Liberation Sans"])
    func wordByWordShapingEqualsWholeRuns(family: String) throws {
        let fonts = try FontLibrary()
        let (primary, _) = try fonts.primaryTypeface(for: TextStyle(fontFamily: family, fontSize: 37))
        let text = Array((TextBenchmarks.sampleScript(words: 400, wordsPerParagraph: 0)
            + " Ünïcödé naïve office affine “AV” To. Ѳеодоръ Ἀθῆναι  double  spaces").unicodeScalars.map(\.value))
        func shaped(byWords: Bool) -> [ShapedGlyph] {
            let shaper = BlockShaper(fonts: fonts, primary: primary)
            shaper.usesWordCache = byWords
            var glyphs: [ShapedGlyph] = []
            text.withUnsafeBufferPointer { buffer in
                let runs = shaper.itemize(buffer, levels: nil)
                // Twice: the second pass hits the cache for every word.
                for _ in 0..<2 {
                    glyphs.removeAll()
                    shaper.shape(buffer, runs: runs, range: 0..<buffer.count, isolated: false,
                                 paragraphStart: true, paragraphEnd: true, into: &glyphs)
                }
            }
            return glyphs
        }
        let whole = shaped(byWords: false)
        #expect(whole.count > 2000)
        #expect(shaped(byWords: true) == whole)
        if family.hasPrefix("Noto") { #expect(primary.spaceIsContextFree) }
        if family.hasPrefix("Liberation") { #expect(!primary.spaceIsContextFree) }
    }
}
