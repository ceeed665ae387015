/// Why voice follow cannot listen. Each case says what to change.
public enum ListeningError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Only the installed English model exists; following another language would follow nonsense.
    case unsupportedLanguage(String)
    case modelMissing(path: String)
    case noWords
    case cannotWriteModel(path: String, reason: String)
    case decoderFailed(String)

    public var description: String {
        switch self {
        case let .unsupportedLanguage(language):
            "voice follow cannot listen to \"\(language)\": only English (en) has a speech model on this machine "
                + "(pocketsphinx-en-us); following another language would track noise, so follow stays off"
        case let .modelMissing(path):
            "voice follow needs the English speech model at \(path) (install pocketsphinx-en-us)"
        case .noWords:
            "voice follow has nothing to listen for: the script has no words"
        case let .cannotWriteModel(path, reason):
            "cannot write the script's language model to \(path): \(reason)"
        case let .decoderFailed(what):
            "the speech recogniser failed: \(what)"
        }
    }
}
