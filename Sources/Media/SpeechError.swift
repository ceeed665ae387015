/// Why a text could not be spoken. Each case says what to change.
public enum SpeechError: Error, Equatable, Sendable, CustomStringConvertible {
    /// espeak-ng could not start (its data folder is missing or unreadable).
    case engineUnavailable(String)
    case unknownVoice(String, suggestions: [String])
    case rateOutOfRange(Int)
    /// Nothing left to say once control characters and unsupported symbols are gone.
    case nothingToSay
    case textTooLong(characters: Int, limit: Int)
    /// espeak-ng returned an error code for this text.
    case synthesisFailed(code: Int32)

    public var description: String {
        switch self {
        case let .engineUnavailable(reason):
            "speech synthesis is unavailable: \(reason) (is the espeak-ng-data package installed?)"
        case let .unknownVoice(name, suggestions):
            "unknown voice \"\(name)\"" + (suggestions.isEmpty ? "" : " (did you mean \(suggestions.map { "\"\($0)\"" }.joined(separator: ", "))?)")
                + "; `rig speak --voices` lists them"
        case let .rateOutOfRange(rate):
            "speech rate must be between \(SpeechSynthesizer.rates.lowerBound) and \(SpeechSynthesizer.rates.upperBound) words per minute, found \(rate)"
        case .nothingToSay:
            "nothing to say: the text is empty once control characters and unsupported symbols are removed"
        case let .textTooLong(characters, limit):
            "text too long to speak: \(characters) characters, at most \(limit)"
        case let .synthesisFailed(code):
            "espeak-ng failed on this text (error \(code))"
        }
    }
}
