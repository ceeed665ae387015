/// How the reading text (or a label) is set: the settings a script writer chooses.
///
/// `lineSpacing` multiplies the primary font's natural line height (ascent + descent +
/// line gap), the 1.0-2.0 multiplier of the reading settings.
public struct TextStyle: Hashable, Sendable {
    /// The five families the reading settings offer, spelled as fontconfig knows them.
    public static let readingFamilies = [
        "Noto Sans", "Noto Serif", "Liberation Sans", "Liberation Serif", "DejaVu Sans Mono",
    ]

    public var fontFamily: String
    /// Pixel size of the em square.
    public var fontSize: Double
    public var lineSpacing: Double

    public init(fontFamily: String = "Noto Sans", fontSize: Double = 60, lineSpacing: Double = 1.0) {
        self.fontFamily = fontFamily
        self.fontSize = fontSize
        self.lineSpacing = lineSpacing
    }

    /// Sizes outside what FreeType and a screen can sensibly show are clamped, so a
    /// bad setting degrades instead of failing.
    var clampedFontSize: Double { min(max(fontSize.isFinite ? fontSize : 60, 4), 1000) }
    var clampedLineSpacing: Double { min(max(lineSpacing.isFinite ? lineSpacing : 1, 0.5), 4) }
}
