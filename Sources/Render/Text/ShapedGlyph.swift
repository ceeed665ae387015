import CHarfBuzz

/// A glyph straight out of HarfBuzz, kept in logical (reading) order so the line
/// breaker can walk it; `cluster` is the scalar offset within its layout block.
struct ShapedGlyph: Equatable {
    var glyphID: UInt32
    var cluster: Int32
    var advance: Float
    var xOffset: Float
    /// Screen direction: positive moves the glyph down.
    var yOffset: Float
    var typeface: UInt16
    /// HB_GLYPH_FLAG_UNSAFE_TO_BREAK: breaking the text before this glyph's cluster
    /// changes shaping, so a line starting or ending here is reshaped on its own.
    var unsafeToBreak: Bool
}

/// A stretch of text with one typeface, one bidi level and one script: what one
/// hb_shape call handles.
struct ShapingRun {
    var start: Int
    var end: Int
    var typeface: Typeface
    var level: UInt8
    var script: hb_script_t
}
