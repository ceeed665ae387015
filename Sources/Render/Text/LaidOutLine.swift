/// One glyph placed on a line: which typeface, which glyph, where.
///
/// `x` is the pen position from the left edge of the text column in pixels, already in
/// visual order and aligned; `yOffset` moves the glyph down from the baseline (marks,
/// superscripts). Glyphs refer to their typeface by `FontLibrary` id.
public struct PositionedGlyph: Hashable, Sendable {
    public var typeface: UInt16
    public var glyphID: UInt32
    public var x: Float
    public var yOffset: Float
    /// Scalar offset in the script of the first character this glyph shows.
    public var textOffset: Int32
    /// Which colour draws it: `Ink.text`, or `Ink.direction` for a direction's glyphs.
    public var ink: UInt8

    public enum Ink {
        public static let text: UInt8 = 0
        public static let direction: UInt8 = 1
    }

    public init(typeface: UInt16, glyphID: UInt32, x: Float, yOffset: Float, textOffset: Int32 = -1,
                ink: UInt8 = Ink.text) {
        self.typeface = typeface
        self.glyphID = glyphID
        self.x = x
        self.yOffset = yOffset
        self.textOffset = textOffset
        self.ink = ink
    }
}

/// A stretch of a line drawn on the highlight colour (`==marked==`), in the same
/// column coordinates as the glyphs' `x`.
public struct HighlightRun: Hashable, Sendable {
    public var x: Float
    public var width: Float

    public init(x: Float, width: Float) {
        self.x = x
        self.width = width
    }
}

/// A wrapped line of the script, ready to draw.
///
/// Aligned as the style says (`TextAlignment`); the default, left, is start-aligned,
/// as teleprompters read best: left-to-right paragraphs start at the column's left
/// edge, right-to-left paragraphs at its right edge. Trailing spaces hang past the end
/// and are not part of `glyphs` or `width`.
public struct LaidOutLine: Sendable {
    /// Top of the line in layout coordinates (pixels from the top of the text).
    public var y: Double
    public var height: Double
    /// Distance from the line's top to its baseline.
    public var baseline: Double
    /// Advance width of the visible glyphs.
    public var width: Double
    public var glyphs: [PositionedGlyph]
    /// Highlighted stretches, left to right (empty for almost every line).
    public var highlights: [HighlightRun] = []
    /// Word (counted over the whole text, see `TextLayout`) at the start of this line:
    /// the word it begins with, the word it continues after a forced break, or for a
    /// blank line the next word.
    public var firstWordIndex: Int
    /// True when the line's paragraph reads right to left.
    public var isRTL: Bool
    /// Unicode scalar offsets of the line's text within the whole script.
    public var textRange: Range<Int>
    /// Count of words that start before this line and up to its end; word `w` starts
    /// on the line when `wordStartsBefore <= w < wordStartsThrough`.
    var wordStartsBefore: Int
    var wordStartsThrough: Int

    /// Where the line's first glyph sits in the column: 0 for left-to-right lines,
    /// `columnWidth - width` for right-to-left ones.
    public var left: Double {
        glyphs.first.map { Double($0.x) } ?? 0
    }
}
