/// Upright UI text on a display (status lines, badge captions): lines from
/// `FontLibrary.layoutLabel`, painted with their top-left at (x, y). Never
/// transformed. Glyphs blend OVER what is below, so the compositor draws a label
/// in its scratch area, never on the target directly.
public struct Label {
    public var lines: [LaidOutLine]
    public var x: Int
    public var y: Int
    public var color: Color
    /// Colours of marked text (directions, highlights); nil for plain labels.
    public var accents: TextAccents?
    public let painter: GlyphPainter

    public init(lines: [LaidOutLine], x: Int, y: Int, color: Color, accents: TextAccents? = nil,
                painter: GlyphPainter) {
        self.lines = lines
        self.x = x
        self.y = y
        self.color = color
        self.accents = accents
        self.painter = painter
    }

    /// Lays out `text` in `style` (one paragraph per line of text, wrapped at
    /// `maxWidth` when given).
    public init(_ text: String, style: TextStyle, x: Int, y: Int, color: Color, maxWidth: Int? = nil,
                painter: GlyphPainter) {
        self.init(lines: painter.fonts.layoutLabel(text, style: style, maxWidth: maxWidth.map(Double.init)),
                  x: x, y: y, color: color, painter: painter)
    }

    public var width: Int { Int((lines.map(\.width).max() ?? 0).rounded(.up)) }
    public var height: Int { Int(lines.reduce(0) { $0 + $1.height }.rounded(.up)) }

    var bounds: PixelRect {
        // A little slack around the advance box for ink that overhangs it.
        let slack = Int((lines.first?.height ?? 0) / 4) + 1
        return PixelRect(x: x - slack, y: y - slack, width: width + 2 * slack, height: height + 2 * slack)
    }

    /// The same text at the same place in the same colours, told by the storage of the
    /// lines' glyphs: a label cache hands out the same arrays for the same text, and an
    /// array kept alive (as a composed frame keeps its layers) cannot have its storage
    /// reused. Glyphs are never compared one by one.
    func isSame(as other: Label) -> Bool {
        guard x == other.x, y == other.y, color == other.color, accents == other.accents, painter === other.painter,
              lines.count == other.lines.count
        else { return false }
        return zip(lines, other.lines).allSatisfy { mine, theirs in
            mine.y == theirs.y && mine.baseline == theirs.baseline && mine.highlights == theirs.highlights
                && Self.sameStorage(mine.glyphs, theirs.glyphs)
        }
    }

    private static func sameStorage(_ one: [PositionedGlyph], _ other: [PositionedGlyph]) -> Bool {
        one.count == other.count
            && one.withUnsafeBufferPointer { mine in other.withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress } }
    }

    func draw(into image: OpaquePointer, dx: Int, dy: Int) {
        for line in lines {
            painter.draw(line: line, into: image, originX: x + dx, originY: y + dy + Int(line.y.rounded()),
                         color: (color.red, color.green, color.blue), alpha: color.alpha, accents: accents)
        }
    }
}
