import Render
import Testing

/// The scrolling text moves by fractions of a pixel from pieces rasterized at each row
/// phase (issue 38). A phase must be glyphs rasterized from outlines moved by it, as
/// sharp as at phase 0, never a blend of two rows, which would smear every
/// horizontal edge over one more row.
@Suite struct RowPhaseGlyphTests {
    static let white: (r: UInt8, g: UInt8, b: UInt8) = (255, 255, 255)

    /// Rows of `canvas` from `top` for `rows`: the ink's vertical centroid and how many
    /// pixels are partly covered (an edge), white on black.
    func ink(_ canvas: Canvas, top: Int, rows: Int) -> (centroid: Double, partial: Int) {
        var mass = 0.0, moment = 0.0, partial = 0
        for y in top..<(top + rows) {
            for x in 0..<canvas.width {
                let coverage = Int(canvas.pixel(x: x, y: y) & 0xff)
                mass += Double(coverage)
                moment += Double(coverage) * Double(y - top)
                if coverage > 16 && coverage < 240 { partial += 1 }
            }
        }
        return (moment / max(mass, 1), partial)
    }

    @Test func aLineAtPhasesZeroAndHalfKeepsItsEdgesSharp() throws {
        let fonts = try FontLibrary()
        let layout = try TextLayout(text: "Hamburg Illinois", style: TextStyle(fontSize: 48), columnWidth: 560,
                                    fonts: fonts)
        let line = try #require(layout.line(at: 0))
        let painter = GlyphPainter(fonts: fonts)
        let band = Int(line.height.rounded(.up)) + 8
        let canvas = try Canvas(width: 560, height: 2 * band)
        canvas.fill(Color(rgb: 0x000000))
        painter.draw(line: line, into: canvas.pixmanImage, originX: 10, originY: 4, rowFraction: 0, color: Self.white)
        painter.draw(line: line, into: canvas.pixmanImage, originX: 10, originY: band + 4, rowFraction: ChunkedTextBlock.rowFractions / 2,
                     color: Self.white)
        try SceneReferenceImage.expectMatch(canvas, named: "row-phases-zero-and-half")

        let whole = ink(canvas, top: 0, rows: band), half = ink(canvas, top: band, rows: band)
        // Moved down by half a pixel...
        #expect(abs(half.centroid - whole.centroid - 0.5) < 0.03, "\(whole.centroid) → \(half.centroid)")
        // ...with edges as thin: a blend of two rows would make about half again as
        // many pixels partly covered.
        #expect(Double(half.partial) < Double(whole.partial) * 1.15, "\(whole.partial) → \(half.partial) edge pixels")

        // What a blend would have been, for scale: it fails the same bound.
        let blend = try Canvas(width: 560, height: band)
        for y in 0..<band {
            for x in 0..<560 {
                let here = Int(canvas.pixel(x: x, y: y) & 0xff), above = y > 0 ? Int(canvas.pixel(x: x, y: y - 1) & 0xff) : 0
                let value = UInt32((here + above + 1) / 2)
                blend.pixels[y * 560 + x] = 0xff00_0000 | value << 16 | value << 8 | value
            }
        }
        let blended = ink(blend, top: 0, rows: band)
        #expect(Double(blended.partial) > Double(whole.partial) * 1.3, "a blend: \(blended.partial) edge pixels")
    }
}
