import Durable
import Foundation

/// What the session file holds: roster, settings, progress, scores (as the attempts'
/// verdict histories), the selection and a pending review. Never consent, camera
/// readiness or a running capture: a restart asks consent again and waits for the rig
/// to report its devices.
public struct SavedSession: Codable, Equatable, Sendable {
    public static let currentFormat = 1

    public var format = SavedSession.currentFormat
    public var setup: GameSetup
    /// ready, review, complete or interrupted: never a capture phase.
    public var phase: GamePhase
    public var attempts: [AttemptRecord]
    public var turn: Int
    public var selection: ChallengeSelection?
    public var retrySelection: ChallengeSelection?
    public var ended: Bool
    public var random: GameRandom
    public var lastGeneration: UInt64
    public var lastCueID: UInt64
}

/// Why a session file could not be used. The kiosk then starts a new game and says why.
public enum SessionFileError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case corrupt(path: String, reason: String)
    case unsupportedFormat(path: String, format: Int)
    /// The file is well formed but its setup is no longer valid (a changed catalog).
    case invalid(path: String, [SetupProblem])
    case writeFailed(AtomicFileError)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "The game session \(path) could not be read: \(reason)"
        case .corrupt(let path, let reason): "The game session \(path) is damaged: \(reason)"
        case .unsupportedFormat(let path, let format): "The game session \(path) has unknown format \(format)"
        case .invalid(let path, let problems):
            "The game session \(path) no longer fits: " + problems.map(\.description).joined(separator: "; ")
        case .writeFailed(let error): error.description
        }
    }
}
