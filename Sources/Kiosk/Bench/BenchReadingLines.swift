import Render

/// The laid-out script as the chunked text block reads it: TextLayout's lines,
/// painted by a GlyphPainter. The bench's own bridge between the text and compose
/// parts of Render, so it measures exactly those two and nothing of a scene.
final class BenchReadingLines: ReadingTextLines {
    let layout: TextLayout
    let painter: GlyphPainter

    init(layout: TextLayout, painter: GlyphPainter) {
        self.layout = layout
        self.painter = painter
    }

    func lineBox(at index: Int) -> ReadingLineBox? {
        guard let line = layout.line(at: index) else { return nil }
        return ReadingLineBox(y: Int(line.y.rounded()), height: Int(line.height.rounded()))
    }

    func drawLine(at index: Int, into image: OpaquePointer, x: Int, y: Int, color: Color) {
        guard let line = layout.line(at: index) else { return }
        painter.draw(line: line, into: image, originX: x, originY: y,
                     color: (color.red, color.green, color.blue), alpha: color.alpha)
    }
}
