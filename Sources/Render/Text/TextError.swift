/// What can go wrong while finding fonts or laying out text.
public enum TextError: Error, Equatable, Sendable, CustomStringConvertible {
    case fontconfigUnavailable
    case freetypeUnavailable(code: Int32)
    case noFontFound(family: String)
    case fontFileUnreadable(path: String, code: Int32)

    public var description: String {
        switch self {
        case .fontconfigUnavailable:
            return "fontconfig could not load its configuration; no fonts can be found"
        case .freetypeUnavailable(let code):
            return "FreeType could not start (error \(code))"
        case .noFontFound(let family):
            return "no font at all was found for family '\(family)'; install fonts-noto-core"
        case .fontFileUnreadable(let path, let code):
            return "font file \(path) could not be opened (FreeType error \(code))"
        }
    }
}

/// A problem that does not stop rendering, shown to the operator instead of crashing:
/// an unknown family is replaced by fontconfig's best match.
public struct FontWarning: Hashable, Sendable, CustomStringConvertible {
    public let requestedFamily: String
    public let usedFamily: String

    public var description: String {
        "font family '\(requestedFamily)' is not installed; using '\(usedFamily)' instead"
    }
}
