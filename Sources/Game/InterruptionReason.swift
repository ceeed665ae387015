import Foundation

/// Why an attempt was cancelled. Every reason has the same consequence: the attempt is
/// voided without penalty, its media is discarded, and a retry is offered that uses no
/// scored challenge.
public enum InterruptionReason: Codable, Equatable, Hashable, Sendable, CustomStringConvertible {
    case cameraLost
    /// A different camera took the selected one's place; never switched silently.
    case cameraChanged
    case outerDisplayLost
    /// The host turned the participant's display off.
    case outerDisplayOff
    /// The participant's tap on Stop.
    case participantStop
    case hostStop
    case vtSwitch
    case shutdown
    /// No presentation of the cue on the outer display within 0.5 s of its request.
    case cueNotShown
    /// A stream delivered too little accepted media to keep the timeline going.
    case recordingStalled(MediaStream)
    case recordingFailed(String)
    case consentWithdrawn
    /// The prepared speech made the recording longer than its 20 s bound.
    case tooLongForRecording(seconds: Double)
    /// The instruction could not be synthesized or played (no sound output, espeak-ng).
    case speechFailed(String)
    /// The host left the game for the prompter mid-attempt.
    case leftGame

    public var description: String {
        switch self {
        case .cameraLost: "The camera was lost"
        case .cameraChanged: "The camera was replaced — check the framing"
        case .outerDisplayLost: "The participant's display was lost"
        case .outerDisplayOff: "The participant's display was turned off"
        case .participantStop: "The participant stopped the attempt"
        case .hostStop: "The host stopped the attempt"
        case .vtSwitch: "The console was switched away"
        case .shutdown: "The rig shut down during the attempt"
        case .cueNotShown: "The cue did not appear on the participant's display in time"
        case .recordingStalled(let stream): "The recording's \(stream.rawValue) stalled"
        case .recordingFailed(let reason): "The recording failed: \(reason)"
        case .consentWithdrawn: "The participant withdrew consent to recording"
        case .tooLongForRecording(let seconds):
            "The recording would last \(Self.format(seconds)) s, more than the 20 s bound"
        case .speechFailed(let reason): "The instruction could not be spoken: \(reason)"
        case .leftGame: "The host left the game during the attempt"
        }
    }

    static func format(_ seconds: Double) -> String {
        String(format: "%.1f", seconds)
    }
}
