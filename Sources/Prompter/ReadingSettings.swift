import Foundation

/// How the talent's text looks and moves. Global, not per script; persisted by
/// `SettingsStore`. Every value is kept in range on every path in: the initializer,
/// the property setters and JSON decoding (out-of-range numbers are clamped, unknown
/// names fall back to the defaults; a bad value never discards the rest).
public struct ReadingSettings: Codable, Sendable, Equatable {
    public static let fontSizeRange = 20...120
    public static let lineSpacingRange = 1.0...2.0
    /// Percent of the column width, on each side.
    public static let marginRange = 0.0...25.0

    /// The built-in defaults; rig.toml's `[prompter]` values replace them per rig.
    /// 64 px reads comfortably from 1.5–2 m on a 1080p monitor behind the glass;
    /// 1.3 line spacing and 10 % margins keep the eye on a short column.
    public static let standard = ReadingSettings()

    public var fontFamily: FontFamily
    /// Pixels on the outer display.
    public var fontSize: Int { didSet { fontSize = Self.clamp(fontSize, Self.fontSizeRange) } }
    /// Multiple of the font's line height.
    public var lineSpacing: Double { didSet { lineSpacing = Self.clamp(lineSpacing, Self.lineSpacingRange, fallback: 1.3) } }
    /// Percent of the column width left empty on each side.
    public var margin: Double { didSet { margin = Self.clamp(margin, Self.marginRange, fallback: 10) } }
    public var textColor: PresetColor
    public var backgroundColor: PresetColor
    /// Horizontal mirror (left-right), for reading through a beam splitter.
    public var mirror: Bool
    /// Vertical flip (upside down).
    public var flip: Bool
    public var rotation: TextRotation
    /// Scroll speed in px/s, kept in `ScrollSpeed.range`.
    public var speed: Int { didSet { speed = ScrollSpeed.clamped(speed) } }
    /// Seconds of 3-2-1 on both displays when play starts from a stop (0: off).
    public var countdown: Int { didSet { countdown = Self.clamp(countdown, Self.countdownRange) } }
    public var endOfScript: EndBehavior
    /// A small remaining-time readout on the talent's display.
    public var outerTimer: Bool
    public var readingLine: ReadingLine
    public var pointer: PointerStyle
    public var alignment: ReadingAlignment
    public var weight: ReadingWeight
    /// The colour of directions (`[PAUSE]`), which the talent sees but does not say.
    public var directionColor: PresetColor
    /// The colour behind `==highlighted==` words.
    public var highlightColor: PresetColor

    public static let defaultDirectionColor = PresetColor.cyan
    public static let defaultHighlightColor = PresetColor.navy

    public static let countdownRange = 0...10

    public init(fontFamily: FontFamily = .defaultFamily, fontSize: Int = 64, lineSpacing: Double = 1.3,
                margin: Double = 10, textColor: PresetColor = .defaultText,
                backgroundColor: PresetColor = .defaultBackground, mirror: Bool = false, flip: Bool = false,
                rotation: TextRotation = .none, speed: Int = ScrollSpeed.defaultValue, countdown: Int = 0,
                endOfScript: EndBehavior = .stop, outerTimer: Bool = false, readingLine: ReadingLine = .marker,
                pointer: PointerStyle = .both, alignment: ReadingAlignment = .left, weight: ReadingWeight = .regular,
                directionColor: PresetColor = ReadingSettings.defaultDirectionColor,
                highlightColor: PresetColor = ReadingSettings.defaultHighlightColor) {
        self.fontFamily = fontFamily
        self.fontSize = Self.clamp(fontSize, Self.fontSizeRange)
        self.lineSpacing = Self.clamp(lineSpacing, Self.lineSpacingRange, fallback: 1.3)
        self.margin = Self.clamp(margin, Self.marginRange, fallback: 10)
        self.textColor = textColor
        self.backgroundColor = backgroundColor
        self.mirror = mirror
        self.flip = flip
        self.rotation = rotation
        self.speed = ScrollSpeed.clamped(speed)
        self.countdown = Self.clamp(countdown, Self.countdownRange)
        self.endOfScript = endOfScript
        self.outerTimer = outerTimer
        self.readingLine = readingLine
        self.pointer = pointer
        self.alignment = alignment
        self.weight = weight
        self.directionColor = directionColor
        self.highlightColor = highlightColor
    }

    /// Whether going from `old` to these settings moves the text on the outer display, so
    /// it is laid out again: its font, size, weight, spacing, margins, alignment, a quarter turn.
    public func relaysOut(from old: ReadingSettings) -> Bool {
        fontFamily != old.fontFamily || fontSize != old.fontSize || lineSpacing != old.lineSpacing
            || margin != old.margin || rotation.isSideways != old.rotation.isSideways
            || alignment != old.alignment || weight != old.weight
    }

    enum CodingKeys: String, CodingKey {
        case fontFamily, fontSize, lineSpacing, margin, textColor, backgroundColor, mirror, flip, rotation, speed
        case countdown, endOfScript, outerTimer, readingLine, pointer
        case alignment, weight, directionColor, highlightColor
    }

    /// Decodes over `.standard`: see `decoded(from:defaults:)` for other defaults.
    public init(from decoder: Decoder) throws {
        self = try Patch(from: decoder).applied(to: .standard)
    }

    /// Decodes JSON whose missing or unusable keys take their value from `defaults`
    /// (the rig.toml defaults). Throws only when the data is not a JSON object.
    public static func decoded(from data: Data, defaults: ReadingSettings) throws -> ReadingSettings {
        try JSONDecoder().decode(Patch.self, from: data).applied(to: defaults)
    }

    /// Every key optional and leniently typed: a wrong value is ignored, not fatal.
    struct Patch: Decodable {
        let fontFamily: FontFamily?, textColor: PresetColor?, backgroundColor: PresetColor?
        let fontSize: Double?, lineSpacing: Double?, margin: Double?, rotation: Double?, speed: Double?
        let mirror: Bool?, flip: Bool?
        let countdown: Double?, endOfScript: EndBehavior?, outerTimer: Bool?
        let readingLine: ReadingLine?, pointer: PointerStyle?
        let alignment: ReadingAlignment?, weight: ReadingWeight?, directionColor: PresetColor?
        let highlightColor: PresetColor?

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            func string(_ key: CodingKeys) -> String? { (try? c.decodeIfPresent(String.self, forKey: key)) ?? nil }
            func number(_ key: CodingKeys) -> Double? {
                ((try? c.decodeIfPresent(Double.self, forKey: key)) ?? nil).flatMap { $0.isFinite ? $0 : nil }
            }
            fontFamily = string(.fontFamily).flatMap(FontFamily.init(rawValue:))
            textColor = string(.textColor).flatMap(PresetColor.init(rawValue:))
            backgroundColor = string(.backgroundColor).flatMap(PresetColor.init(rawValue:))
            fontSize = number(.fontSize)
            lineSpacing = number(.lineSpacing)
            margin = number(.margin)
            rotation = number(.rotation)
            speed = number(.speed)
            mirror = (try? c.decodeIfPresent(Bool.self, forKey: .mirror)) ?? nil
            flip = (try? c.decodeIfPresent(Bool.self, forKey: .flip)) ?? nil
            countdown = number(.countdown)
            endOfScript = string(.endOfScript).flatMap(EndBehavior.init(rawValue:))
            outerTimer = (try? c.decodeIfPresent(Bool.self, forKey: .outerTimer)) ?? nil
            readingLine = string(.readingLine).flatMap(ReadingLine.init(rawValue:))
            pointer = string(.pointer).flatMap(PointerStyle.init(rawValue:))
            alignment = string(.alignment).flatMap(ReadingAlignment.init(rawValue:))
            weight = string(.weight).flatMap(ReadingWeight.init(rawValue:))
            directionColor = string(.directionColor).flatMap(PresetColor.init(rawValue:))
            highlightColor = string(.highlightColor).flatMap(PresetColor.init(rawValue:))
        }

        func applied(to base: ReadingSettings) -> ReadingSettings {
            // Bounded before Int conversion so 1e300 cannot trap.
            func integer(_ value: Double) -> Int { Int(max(-1e6, min(1e6, value)).rounded()) }
            return ReadingSettings(
                fontFamily: fontFamily ?? base.fontFamily,
                fontSize: fontSize.map(integer) ?? base.fontSize,
                lineSpacing: lineSpacing ?? base.lineSpacing,
                margin: margin ?? base.margin,
                textColor: textColor ?? base.textColor,
                backgroundColor: backgroundColor ?? base.backgroundColor,
                mirror: mirror ?? base.mirror,
                flip: flip ?? base.flip,
                rotation: rotation.map { TextRotation(snapping: integer($0)) } ?? base.rotation,
                speed: speed.map(integer) ?? base.speed,
                countdown: countdown.map(integer) ?? base.countdown,
                endOfScript: endOfScript ?? base.endOfScript,
                outerTimer: outerTimer ?? base.outerTimer,
                readingLine: readingLine ?? base.readingLine,
                pointer: pointer ?? base.pointer,
                alignment: alignment ?? base.alignment,
                weight: weight ?? base.weight,
                directionColor: directionColor ?? base.directionColor,
                highlightColor: highlightColor ?? base.highlightColor)
        }
    }

    static func clamp(_ value: Int, _ range: ClosedRange<Int>) -> Int {
        min(max(value, range.lowerBound), range.upperBound)
    }

    static func clamp(_ value: Double, _ range: ClosedRange<Double>, fallback: Double) -> Double {
        guard value.isFinite else { return fallback }
        return min(max(value, range.lowerBound), range.upperBound)
    }
}
