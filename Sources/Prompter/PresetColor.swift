/// The eight colours offered for the reading text and for its background. Settings
/// store the `id`, never RGB, so a palette tweak does not strand saved settings.
public enum PresetColor: String, Codable, Sendable, CaseIterable {
    case white
    case cream
    case yellow
    case green
    case cyan
    case gray
    case navy
    case black

    public static let defaultText = PresetColor.white
    public static let defaultBackground = PresetColor.black

    /// The stable identifier stored in JSON and rig.toml ("white").
    public var id: String { rawValue }

    /// What the colour picker shows.
    public var displayName: String {
        switch self {
        case .white: return "White"
        case .cream: return "Cream"
        case .yellow: return "Yellow"
        case .green: return "Green"
        case .cyan: return "Cyan"
        case .gray: return "Gray"
        case .navy: return "Navy"
        case .black: return "Black"
        }
    }

    /// 8-bit sRGB components.
    public var rgb: (red: UInt8, green: UInt8, blue: UInt8) {
        switch self {
        case .white: return (0xFF, 0xFF, 0xFF)
        case .cream: return (0xF5, 0xEC, 0xD7)
        case .yellow: return (0xFF, 0xD6, 0x0A)
        case .green: return (0x30, 0xD1, 0x58)
        case .cyan: return (0x64, 0xD2, 0xFF)
        case .gray: return (0x8E, 0x8E, 0x93)
        case .navy: return (0x0A, 0x1F, 0x44)
        case .black: return (0x00, 0x00, 0x00)
        }
    }

    /// 0xRRGGBB, handy for pixman and PNG code.
    public var rgbHex: UInt32 {
        let (r, g, b) = rgb
        return UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
    }
}
