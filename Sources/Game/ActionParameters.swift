import Foundation

/// Which hand a parameterised card asks for.
public enum Hand: String, Codable, CaseIterable, Sendable {
    case left
    case right
    case either

    /// The words that replace `{hand}` in a card's text.
    public var spoken: String {
        switch self {
        case .left: "your left hand"
        case .right: "your right hand"
        case .either: "either hand"
        }
    }
}

/// The values of a card's parameters: a finger count (1–5) and a hand. A card's own
/// parameters are its defaults; the host may pick other values for one challenge.
public struct ActionParameters: Codable, Equatable, Hashable, Sendable {
    public static let fingerRange = 1...5

    public var fingers: Int?
    public var hand: Hand?

    public init(fingers: Int? = nil, hand: Hand? = nil) {
        self.fingers = fingers
        self.hand = hand
    }

    public var isEmpty: Bool { fingers == nil && hand == nil }

    /// The words that replace `{fingers}`: "one finger", "four fingers".
    public static func spokenFingers(_ count: Int) -> String {
        let words = ["zero", "one", "two", "three", "four", "five"]
        let word = words.indices.contains(count) ? words[count] : String(count)
        return count == 1 ? "one finger" : "\(word) fingers"
    }

    /// `text` with `{fingers}` and `{hand}` filled in. A placeholder without a value is
    /// left as it is; the catalog's validation makes that impossible for loaded cards.
    public func fill(_ text: String) -> String {
        var result = text
        if let fingers { result = result.replacingOccurrences(of: "{fingers}", with: Self.spokenFingers(fingers)) }
        if let hand { result = result.replacingOccurrences(of: "{hand}", with: hand.spoken) }
        return result
    }
}
