import Foundation

/// Why the game refused a host command. Nothing changed.
public enum GameRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    case notAllowed(HostAction, in: GamePhase)
    case gameEnded
    case notReady([SendBlocker])
    case invalidSettings([SetupProblem])
    case unknownCard(String)
    case cardNotInPlay(String)
    case badParameter(card: String, String)
    case unknownPlayer(String)
    case unknownAttempt(Int)
    /// Corrections change an earlier verdict of the host; an attempt the game voided
    /// (interrupted) or one still awaiting review cannot be corrected.
    case notCorrectable(attempt: Int)
    case noMedia(attempt: Int)

    public var description: String {
        switch self {
        case .notAllowed(let action, let phase): "\(action.rawValue) is not possible in \(phase.rawValue)"
        case .gameEnded: "The game has ended"
        case .notReady(let blockers): "Not ready to send: " + blockers.map(\.description).joined(separator: "; ")
        case .invalidSettings(let problems): "Invalid settings: " + problems.map(\.description).joined(separator: "; ")
        case .unknownCard(let id): "There is no action card \(id)"
        case .cardNotInPlay(let id): "The action \(id) is not in play with these settings"
        case .badParameter(let card, let reason): "Action \(card): \(reason)"
        case .unknownPlayer(let name): "\(name) is not a player in this game"
        case .unknownAttempt(let id): "There is no attempt \(id)"
        case .notCorrectable(let id): "Attempt \(id) has no verdict of the host to correct"
        case .noMedia(let id): "Attempt \(id) has no saved video"
        }
    }
}
