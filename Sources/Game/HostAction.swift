import Foundation

/// The host dashboard's controls, by kind. `allowed(in:ended:)` says which exist in a
/// phase; the dashboard greys out the others. (Send also needs `SendBlocker`s to be
/// empty; the phase only says whether Send is on offer at all.)
public enum HostAction: String, CaseIterable, Sendable {
    case select
    case changeSettings
    /// Record a player's consent, or its withdrawal: possible at any moment.
    case consent
    case send
    case stop
    case judge
    /// Change the verdict of an attempt already judged.
    case correct
    case deleteMedia
    case retry
    case next
    case endGame

    /// The host's controls in each phase: nothing changes a challenge mid-capture, and
    /// an unresolved result blocks everything that moves play on (send, next, end).
    public static func allowed(in phase: GamePhase, ended: Bool = false) -> Set<HostAction> {
        if ended { return [.consent, .correct, .deleteMedia] }
        let between: Set<HostAction> = [.select, .changeSettings, .consent, .correct, .deleteMedia]
        switch phase {
        case .ready: return between.union([.send, .endGame])
        case .preparing, .leadIn, .speech, .cue, .response, .tail: return [.stop, .consent]
        case .review: return between.union([.judge])
        case .complete: return between.union([.next, .endGame])
        case .interrupted: return between.union([.retry, .endGame])
        }
    }
}
