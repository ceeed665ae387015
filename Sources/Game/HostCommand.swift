import Foundation

/// What the host does on the dashboard. `GameSession.perform(_:at:)` refuses a command
/// its phase does not allow (`HostAction.allowed`) with a `GameRefusal`.
public enum HostCommand: Equatable, Sendable {
    /// Pick the next challenge, or clear the pick with nil.
    case select(ChallengeSelection?)
    case changeSettings(GameSettings)
    case consent(player: String, agreed: Bool)
    /// The player plays without being recorded (the consent screen's other answer).
    case playWithoutRecording(player: String)
    case send
    case stop
    /// The verdict on the attempt awaiting review.
    case judge(Verdict)
    /// A new verdict for an attempt already judged (by id).
    case correct(attempt: Int, Verdict)
    case deleteMedia(attempt: Int)
    /// Every attempt's video of this game at once (offered when the game ends); the
    /// results stay, as retention keeps them.
    case deleteGameMedia
    case retry
    case next
    case endGame

    public var action: HostAction {
        switch self {
        case .select: .select
        case .changeSettings: .changeSettings
        case .consent, .playWithoutRecording: .consent
        case .send: .send
        case .stop: .stop
        case .judge: .judge
        case .correct: .correct
        case .deleteMedia, .deleteGameMedia: .deleteMedia
        case .retry: .retry
        case .next: .next
        case .endGame: .endGame
        }
    }
}
