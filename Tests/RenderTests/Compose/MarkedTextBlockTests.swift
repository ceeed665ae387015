import Markup
import Testing
@testable import Render

/// A marked script through the chunked text block (issue 42): a bold, highlighted
/// direction that runs across the boundary of two 24-line chunks is drawn from the
/// cached pieces exactly as its lines are drawn one by one, under every transform.
@Suite struct MarkedTextBlockTests {
    let background = Color(rgb: 0x000000)
    let ink = Color(rgb: 0xffffff)
    let accents = TextAccents(direction: Color(rgb: 0x64d2ff), highlight: Color(rgb: 0x0a1f44))

    @Test(arguments: [TextTransform.identity, TextTransform(mirror: true), TextTransform(rotation: .quarter)])
    func aSpanAcrossAChunkBoundaryDrawsAsItsLines(transform: TextTransform) throws {
        let fonts = try FontLibrary()
        let display = PixelSize(width: 320, height: 240)
        let viewport = transform.textSize(forDisplay: display)
        let text = (0..<60).map { "Line \($0) of the script" }.joined(separator: "\n")
        // From the middle of line 22 to the middle of line 26: over the chunk boundary.
        let start = text.unicodeScalars.count * 22 / 60 + 5, end = text.unicodeScalars.count * 26 / 60 + 5
        let markup = ReadingMarkup(spans: [.init(start..<end, [.strong, .direction, .highlight])])
        let layout = try TextLayout(text: text, markup: markup, style: TextStyle(fontSize: 14),
                                    columnWidth: Double(viewport.width - 20), fonts: fonts)
        let lines = LaidOutTextLines(layout: layout, painter: GlyphPainter(fonts: fonts))
        let block = ChunkedTextBlock(lines: lines, columnWidth: viewport.width, textInset: 10, textColor: ink,
                                     accents: accents, background: background, transform: transform)
        let top = Int(layout.y(ofLine: 20))
        let drawn = try Canvas(size: display)
        block.draw(into: drawn.pixmanImage, frame: PixelRect(size: display), clip: PixelRect(size: display),
                   viewportTop: top)
        // The same lines straight into an upright canvas, then turned as the display is.
        let upright = try Canvas(size: viewport)
        upright.fill(background)
        for index in 0..<60 {
            guard let box = lines.lineBox(at: index) else { break }
            lines.drawLine(at: index, into: upright.pixmanImage, x: 10, y: box.y - top, rowFraction: 0, color: ink,
                           accents: accents)
        }
        let expected = try TestDrawing.transformed(upright, by: transform)
        #expect(TestDrawing.differingPixels(drawn, expected) == 0)
        // And the marks are there: the direction's ink and the highlight behind it.
        var inked = 0, highlighted = 0
        for y in 0..<drawn.height {
            for x in 0..<drawn.width {
                let color = drawn.color(x: x, y: y)
                if color.red < 150 && color.blue > 200 { inked += 1 }
                if color == accents.highlight { highlighted += 1 }
            }
        }
        #expect(inked > 100)
        #expect(highlighted > 1000)
    }
}
