import Foundation

/// Everything about play the host sets, apart from the roster. May change between
/// attempts; a sent challenge keeps its own copy in its snapshot.
public struct GameSettings: Codable, Equatable, Sendable {
    public static let challengesRange = 1...10
    /// Long enough to act on a spoken instruction, short enough to keep a party moving.
    public static let responseWindowRange = 2.0...10.0
    /// espeak-ng's own limits for `-s`.
    public static let wordsPerMinuteRange = 80...450
    public static let cueDurations: [Double] = [0.5, 0.75, 1.5]

    /// Scored challenges each player gets per turn.
    public var challengesPerTurn: Int = 3
    /// Seconds the participant has to act, from the end of speech (spoken) or the cue's
    /// onset (Visual S/Z).
    public var responseWindow: Double = 3
    /// espeak-ng's default speed.
    public var wordsPerMinute: Int = 175
    public var groups: Set<ActionGroup> = Set(ActionGroup.allCases)
    /// Only cards a seated player can do.
    public var seatedOnly: Bool = false
    public var mode: GameMode = .spoken
    /// Seconds the S or Z stays on the outer display (Visual S/Z).
    public var cueDuration: Double = 0.75
    /// Record camera and microphone for review. Off is play (spoken or Visual S/Z)
    /// without a camera file: a game without recording is always possible. The rig
    /// turns it on by default where a camera is configured.
    public var recording: Bool = true
    /// Recording without sound: the host's explicit choice for a rig with no
    /// microphone. The attempt's timeline then tracks the picture alone, and the clip
    /// says it has no sound; otherwise a recording with no microphone is not ready.
    public var pictureOnly: Bool = false

    public init() {}

    private enum CodingKeys: String, CodingKey {
        case challengesPerTurn, responseWindow, wordsPerMinute, groups, seatedOnly, mode, cueDuration, recording
        case pictureOnly
    }

    /// Keys missing from an older session file keep their defaults.
    public init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = GameSettings()
        challengesPerTurn = try keys.decodeIfPresent(Int.self, forKey: .challengesPerTurn) ?? defaults.challengesPerTurn
        responseWindow = try keys.decodeIfPresent(Double.self, forKey: .responseWindow) ?? defaults.responseWindow
        wordsPerMinute = try keys.decodeIfPresent(Int.self, forKey: .wordsPerMinute) ?? defaults.wordsPerMinute
        groups = try keys.decodeIfPresent(Set<ActionGroup>.self, forKey: .groups) ?? defaults.groups
        seatedOnly = try keys.decodeIfPresent(Bool.self, forKey: .seatedOnly) ?? defaults.seatedOnly
        mode = try keys.decodeIfPresent(GameMode.self, forKey: .mode) ?? defaults.mode
        cueDuration = try keys.decodeIfPresent(Double.self, forKey: .cueDuration) ?? defaults.cueDuration
        recording = try keys.decodeIfPresent(Bool.self, forKey: .recording) ?? defaults.recording
        pictureOnly = try keys.decodeIfPresent(Bool.self, forKey: .pictureOnly) ?? defaults.pictureOnly
    }

    /// Reasons per field; empty when the settings can be played. With a catalog, also
    /// refuses a filter that leaves no card to pick.
    public func problems(catalog: ActionCatalog? = nil) -> [SetupProblem] {
        var found: [SetupProblem] = []
        if !Self.challengesRange.contains(challengesPerTurn) {
            found.append(.init(.challengesPerTurn, "must be 1 to 10, found \(challengesPerTurn)"))
        }
        if !responseWindow.isFinite || !Self.responseWindowRange.contains(responseWindow) {
            found.append(.init(.responseWindow, "must be 2 to 10 seconds, found \(responseWindow)"))
        }
        if !Self.wordsPerMinuteRange.contains(wordsPerMinute) {
            found.append(.init(.wordsPerMinute, "must be 80 to 450 words per minute, found \(wordsPerMinute)"))
        }
        if groups.isEmpty {
            found.append(.init(.groups, "choose at least one action group"))
        } else if let catalog, catalog.available(groups: groups, seatedOnly: seatedOnly).isEmpty {
            found.append(.init(.groups, "no card in these groups suits seated players"))
        }
        if !Self.cueDurations.contains(cueDuration) {
            found.append(.init(.cueDuration, "must be 0.5, 0.75 or 1.5 seconds, found \(cueDuration)"))
        }
        return found
    }

    /// Whether a card is in play: in a chosen group, and doable seated when only such
    /// cards are.
    func offers(_ card: ActionCard) -> Bool {
        groups.contains(card.group) && (!seatedOnly || card.seated)
    }

    /// The longest recording a challenge of `card` would make, estimated before
    /// synthesis: the longer of the two rules' wordings, so a draw cannot be refused
    /// after the host saw Send enabled.
    func longestRecording(of card: ActionCard, with values: ActionParameters) -> Double {
        let parameters = (try? card.resolve(values)) ?? card.parameters
        let text = "Simon says, " + card.instruction(parameters)
        let speech = RecordingTimeline.estimatedSpeech(text, wordsPerMinute: wordsPerMinute)
        return RecordingTimeline.length(speech: speech, response: responseWindow, visual: mode == .visual)
    }
}
