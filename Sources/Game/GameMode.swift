import Foundation

/// How the rule reaches the participant.
public enum GameMode: String, Codable, CaseIterable, Sendable {
    /// The instruction is spoken with or without "Simon says"; act only when it is said.
    case spoken
    /// The instruction is spoken without "Simon says"; then the outer display shows S
    /// or Z for the cue duration and the letter decides (see `CueLetter`).
    case visual
}
