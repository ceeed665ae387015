import Foundation

/// The game's source of chance (rule draws), injected so tests are deterministic and a
/// saved session can be replayed. SplitMix64: small, fast, and good enough for a coin.
public struct GameRandom: RandomNumberGenerator, Codable, Equatable, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// Seeded from the system's generator, for play.
    public static func system() -> GameRandom {
        var system = SystemRandomNumberGenerator()
        return GameRandom(seed: system.next())
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A fair draw between the two rules: the seed says nothing of odds, and a party
    /// host expects "Simon says" and its absence equally often over a game.
    public mutating func drawRule() -> ChallengeRule {
        Bool.random(using: &self) ? .simonSays : .notSaid
    }
}
