import Foundation

/// Whether Simon says it: the one fact the participant must get right.
///
/// Spoken mode: `.simonSays` speaks "Simon says, <action>" and the participant should
/// act; `.notSaid` speaks the action alone and the participant should stay still.
/// Visual S/Z: the action is always spoken alone and the letter carries the rule
/// (`CueLetter`).
public enum ChallengeRule: String, Codable, CaseIterable, Sendable {
    case simonSays
    case notSaid

    /// What a participant who follows the rule does.
    public var shouldAct: Bool { self == .simonSays }

    /// The letter Visual S/Z shows for this rule.
    public var cueLetter: CueLetter { self == .simonSays ? .s : .z }
}

/// The letter of Visual S/Z. The seed leaves its meaning unstated; rig's choice, shown
/// in the setup help: **S = Simon says: do it. Z = zip: don't move.** S is the initial
/// of the phrase the spoken game uses for "act"; Z is its opposite end of the alphabet.
public enum CueLetter: String, Codable, CaseIterable, Sendable {
    case s = "S"
    case z = "Z"

    public var rule: ChallengeRule { self == .s ? .simonSays : .notSaid }

    /// The line the setup screen's help shows for this letter.
    public var help: String {
        switch self {
        case .s: "S: Simon says. Do the action."
        case .z: "Z: zip. Don't move."
        }
    }
}

/// Per challenge, the host picks the rule or lets the game draw it.
public enum RuleChoice: Codable, Equatable, Hashable, Sendable {
    case host(ChallengeRule)
    case draw
}

/// Where a sent challenge's rule came from, kept in its snapshot.
public enum RuleSource: String, Codable, Sendable {
    case host
    case drawn
}
