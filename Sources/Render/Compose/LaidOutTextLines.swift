/// The text module's layout and glyph painter as the chunked text block sees
/// them: line boxes (laying out lazily as the block asks) and line painting.
public final class LaidOutTextLines: ReadingTextLines {
    public let layout: TextLayout
    public let painter: GlyphPainter

    public init(layout: TextLayout, painter: GlyphPainter) {
        self.layout = layout
        self.painter = painter
    }

    public func lineBox(at index: Int) -> ReadingLineBox? {
        guard let line = layout.line(at: index) else { return nil }
        return ReadingLineBox(y: Int(line.y.rounded()), height: max(1, Int(line.height.rounded())))
    }

    public func lineHasColour(at index: Int) -> Bool {
        guard let line = layout.line(at: index) else { return false }
        return !line.highlights.isEmpty || line.glyphs.contains { $0.ink == PositionedGlyph.Ink.direction }
    }

    public func drawLine(at index: Int, into image: OpaquePointer, x: Int, y: Int, rowFraction: Int, color: Color,
                         accents: TextAccents?) {
        guard let line = layout.line(at: index) else { return }
        painter.draw(line: line, into: image, originX: x, originY: y, rowFraction: rowFraction,
                     color: (color.red, color.green, color.blue), alpha: color.alpha, accents: accents)
    }
}
