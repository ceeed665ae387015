import Foundation

/// Who has agreed to be recorded in this run. Kept per player, and deliberately never
/// saved: after a cold start everyone is asked again before recording resumes.
public struct ConsentBook: Equatable, Sendable {
    private var agreed: [String: Double] = [:]

    public init() {}

    /// Records agreement (with its wall-clock time) or withdrawal.
    public mutating func record(_ player: String, agreed: Bool, at time: Double) {
        if agreed { self.agreed[player] = time } else { self.agreed[player] = nil }
    }

    public func hasAgreed(_ player: String) -> Bool { agreed[player] != nil }

    /// When the player agreed, for the record.
    public func agreedAt(_ player: String) -> Double? { agreed[player] }
}
