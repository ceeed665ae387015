import Foundation

/// The five groups of the action catalog. Each gives the camera a different job, which
/// is why framing guidance travels with every card.
public enum ActionGroup: String, Codable, CaseIterable, Sendable, Comparable {
    case poses
    case hands
    case balances
    case movements
    case expressions

    /// The name the host sees in the picker.
    public var title: String {
        switch self {
        case .poses: "Poses"
        case .hands: "Hands"
        case .balances: "Balances"
        case .movements: "Movements"
        case .expressions: "Expressions"
        }
    }

    public static func < (lhs: ActionGroup, rhs: ActionGroup) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }
}

/// What must be in the camera's frame for the host to judge a card.
public enum FramingRegion: String, Codable, CaseIterable, Sendable {
    case face
    case hands
    case upperBody = "upper-body"
    case fullBody = "full-body"
}
