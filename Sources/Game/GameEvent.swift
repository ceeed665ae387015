import Foundation

/// What the rig reports to the game: results of the effects it was asked for, device
/// changes, interruptions and the passing of time. Every asynchronous result carries
/// the generation of the attempt it belongs to; one from an abandoned attempt changes
/// nothing. All times are seconds on CLOCK_MONOTONIC.
public enum GameEvent: Equatable, Sendable {
    /// The instruction was synthesized; `duration` seconds of audio are ready to play.
    case speechPrepared(generation: UInt64, duration: Double)
    /// First and last sample of the instruction left the speaker (ALSA times).
    case speechFinished(generation: UInt64, start: Double, end: Double)
    /// The recorder accepted `stream` samples up to `upTo` (the camera frame or audio
    /// period's timestamp).
    case mediaAccepted(generation: UInt64, stream: MediaStream, upTo: Double)
    /// A frame containing cue `cue` was flipped on `surface` at `flipTime`, as flip `frame`.
    case cuePresented(generation: UInt64, cue: UInt64, surface: PresentationSurface, flipTime: Double, frame: UInt64)
    case recordingFinalized(generation: UInt64, file: String)
    case recordingFailed(generation: UInt64, reason: String)
    /// The devices changed (camera, the participant's display). Losing one mid-attempt
    /// interrupts it.
    case rigChanged(RigConditions)
    /// Something outside the game cancels the running attempt (the participant's tap on
    /// Stop, a VT switch, shutdown). Without a running attempt it changes nothing.
    case interrupt(InterruptionReason)
    /// Time passed: the rig calls this at `GameSession.nextDeadline`.
    case tick
}

extension GameEvent {
    /// The generation an asynchronous result belongs to.
    var generation: UInt64? {
        switch self {
        case .speechPrepared(let g, _), .speechFinished(let g, _, _), .mediaAccepted(let g, _, _),
             .cuePresented(let g, _, _, _, _), .recordingFinalized(let g, _), .recordingFailed(let g, _):
            g
        case .rigChanged, .interrupt, .tick: nil
        }
    }
}
