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
    /// The face's weight as fontconfig numbers it (`FontWeight`); the nearest installed
    /// face is used when the family has no such weight.
    public var weight: Int
    public var alignment: TextAlignment

    public init(fontFamily: String = "Noto Sans", fontSize: Double = 60, lineSpacing: Double = 1.0,
                weight: Int = FontWeight.regular, alignment: TextAlignment = .left) {
        self.fontFamily = fontFamily
        self.fontSize = fontSize
        self.lineSpacing = lineSpacing
        self.weight = weight
        self.alignment = alignment
    }

    /// Sizes outside what FreeType and a screen can sensibly show are clamped, so a
    /// bad setting degrades instead of failing.
    var clampedFontSize: Double { min(max(fontSize.isFinite ? fontSize : 60, 4), 1000) }
    var clampedLineSpacing: Double { min(max(lineSpacing.isFinite ? lineSpacing : 1, 0.5), 4) }
}

/// fontconfig's weights for the reading weights offered (fontconfig.h's FC_WEIGHT_*).
public enum FontWeight {
    public static let regular = 80
    public static let medium = 100
    public static let semibold = 180
    public static let bold = 200
    public static let black = 210

    /// A weight's name for messages ("semibold").
    public static func name(_ weight: Int) -> String {
        switch weight {
        case ..<90: "regular"
        case ..<140: "medium"
        case ..<190: "semibold"
        case ..<205: "bold"
        default: "black"
        }
    }
}

/// Where a line sits in the column. For a right-to-left paragraph left and right mirror,
/// as its readers expect: `left` is the side a line starts on, `right` the side it ends.
public enum TextAlignment: String, Hashable, Sendable, CaseIterable {
    case left, centre, right
}
