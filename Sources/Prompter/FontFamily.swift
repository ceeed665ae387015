/// The five reading fonts, by fontconfig family name. Each comes from a Debian package
/// the install script pulls in; the Render module resolves the name to a file.
public enum FontFamily: String, Codable, Sendable, CaseIterable {
    case notoSans = "Noto Sans"
    case notoSerif = "Noto Serif"
    case liberationSans = "Liberation Sans"
    case liberationSerif = "Liberation Serif"
    case dejaVuSansMono = "DejaVu Sans Mono"

    public static let defaultFamily = FontFamily.notoSans

    /// The fontconfig family name ("Noto Sans").
    public var familyName: String { rawValue }

    /// The Debian package that provides it.
    public var debianPackage: String {
        switch self {
        case .notoSans, .notoSerif: return "fonts-noto-core"
        case .liberationSans, .liberationSerif: return "fonts-liberation2"
        case .dejaVuSansMono: return "fonts-dejavu-core"
        }
    }
}
