import Foundation

/// The setup field a problem is about, so the setup screen can show it next to that field.
public enum SetupField: Hashable, Sendable, CustomStringConvertible {
    case host
    case players
    /// One player's name, by position (0-based) in the roster as entered.
    case player(Int)
    case challengesPerTurn
    case responseWindow
    case wordsPerMinute
    case groups
    case mode
    case cueDuration
    case recording

    public var description: String {
        switch self {
        case .host: "host"
        case .players: "players"
        case .player(let index): "player \(index + 1)"
        case .challengesPerTurn: "challenges per turn"
        case .responseWindow: "response window"
        case .wordsPerMinute: "speech speed"
        case .groups: "action groups"
        case .mode: "mode"
        case .cueDuration: "cue duration"
        case .recording: "recording"
        }
    }
}

/// One reason a setup is refused.
public struct SetupProblem: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var field: SetupField
    public var reason: String

    public init(_ field: SetupField, _ reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(field): \(reason)" }
}
