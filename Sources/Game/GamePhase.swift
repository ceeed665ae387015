import Foundation

/// Where the current attempt is. A recorded attempt runs
/// ready → preparing → leadIn → speech → [cue] → response → tail → review → complete;
/// a non-recording one skips leadIn and tail. `cue` exists only in Visual S/Z: the
/// letter has been requested and the game waits (at most 0.5 s) for the outer display
/// to show it. Any capture phase can end in `interrupted`.
public enum GamePhase: String, Codable, CaseIterable, Sendable {
    /// Between attempts: the host picks the next challenge.
    case ready
    /// Send pressed, snapshot frozen, speech being synthesized.
    case preparing
    /// Recording until 0.75 s of accepted audio and video exist.
    case leadIn
    case speech
    case cue
    case response
    /// Recording 1.5 s more, then finalizing the file.
    case tail
    /// The host must judge the attempt.
    case review
    /// Judged; Next moves on.
    case complete
    /// Cancelled; Retry offers the same challenge again without using a scored one.
    case interrupted

    /// An attempt is running: the challenge is locked and only Stop is possible.
    public var isCapturing: Bool {
        switch self {
        case .preparing, .leadIn, .speech, .cue, .response, .tail: true
        case .ready, .review, .complete, .interrupted: false
        }
    }
}
