import Foundation

/// The card as it was when a challenge was sent.
public struct CardReference: Codable, Equatable, Sendable {
    public let id: String
    public let version: Int
    public let group: ActionGroup
    /// The card's text with its placeholders, as the catalog had it.
    public let text: String
    /// The parameter values used (defaults and the host's choices).
    public let parameters: ActionParameters
}

/// The letter shown in Visual S/Z and for how long.
public struct CueSpec: Codable, Equatable, Sendable {
    public let letter: CueLetter
    public let duration: Double
}

/// Speech settings the instruction was spoken with.
public struct SpeechSettings: Codable, Equatable, Sendable {
    public let wordsPerMinute: Int
}

/// Everything about one challenge, frozen at Send. Every field is a `let`: later
/// changes to the catalog, the setup or the selection never rewrite a saved attempt.
public struct ChallengeSnapshot: Codable, Equatable, Sendable {
    public let player: String
    public let host: String
    /// Exactly what is spoken: "Simon says, hold up three fingers on your right hand."
    /// or "Hold up three fingers on your right hand."
    public let instruction: String
    public let rule: ChallengeRule
    public let ruleSource: RuleSource
    public let mode: GameMode
    public let responseDuration: Double
    public let speech: SpeechSettings
    /// Visual S/Z only.
    public let cue: CueSpec?
    public let recording: Bool
    /// Recorded without sound by the host's choice; nil in attempts saved before the
    /// choice existed (they recorded sound when there was a microphone).
    public let pictureOnly: Bool?
    public let card: CardReference
    /// 0-based turn of the game and 1-based challenge within it (a retry keeps both).
    public let turn: Int
    public let challenge: Int

    /// Resolves a selection against the card and settings. `rule` is already decided
    /// (the host's or the draw's).
    static func freeze(card: ActionCard, parameters: ActionParameters, rule: ChallengeRule,
                       source: RuleSource, player: String, host: String, settings: GameSettings,
                       turn: Int, challenge: Int) -> ChallengeSnapshot {
        let action = card.instruction(parameters)
        let spokenRule = settings.mode == .spoken && rule == .simonSays
        let instruction = spokenRule ? "Simon says, \(action)." : "\(capitalizedFirst(action))."
        let cue = settings.mode == .visual ? CueSpec(letter: rule.cueLetter, duration: settings.cueDuration) : nil
        return ChallengeSnapshot(
            player: player, host: host, instruction: instruction, rule: rule, ruleSource: source,
            mode: settings.mode, responseDuration: settings.responseWindow,
            speech: SpeechSettings(wordsPerMinute: settings.wordsPerMinute), cue: cue,
            recording: settings.recording, pictureOnly: settings.recording && settings.pictureOnly,
            card: CardReference(id: card.id, version: card.version, group: card.group, text: card.text,
                                parameters: parameters),
            turn: turn, challenge: challenge)
    }

    static func capitalizedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }
}
