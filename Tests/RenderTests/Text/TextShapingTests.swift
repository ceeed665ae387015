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
