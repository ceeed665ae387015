import Foundation

/// The host's judgement of one attempt. Judging is manual throughout: the camera gives
/// framing and a replay, never an automatic verdict.
public enum Verdict: String, Codable, CaseIterable, Sendable {
    /// Followed the rule (acted on "Simon says" / S, stayed still otherwise): one point.
    case pass
    /// Did not: no point, and the challenge is used.
    case fail
    /// Does not count: no point and no challenge used (the player gets another go).
    case void
}

/// Who made a change in an attempt's verdict history.
public enum VerdictAuthor: String, Codable, Sendable {
    case host
    /// The game itself, voiding an interrupted attempt (no penalty).
    case game
}

/// One entry of an attempt's verdict history. Corrections append; nothing is rewritten.
public struct VerdictChange: Codable, Equatable, Sendable {
    public let verdict: Verdict
    /// Wall-clock seconds since 1970 (the session's injected clock), so a history read
    /// after a restart still orders and dates its corrections.
    public let at: Double
    public let by: VerdictAuthor
}
