import Foundation

/// What became of an attempt's recording.
public enum MediaState: Codable, Equatable, Sendable {
    /// A non-recording attempt.
    case none
    /// Being recorded or finalized.
    case recording
    /// Finalized; `file` is the recorder's path for it.
    case saved(file: String)
    /// Incomplete media of an interrupted attempt, to be removed.
    case discarded
    /// Deleted by the host; the result stays.
    case deleted
}

/// Times of one attempt on CLOCK_MONOTONIC (this run's clock; kept in the session file
/// for the export's sake, meaningless for comparisons after a reboot), and the cue's
/// position on the recording's timeline.
public struct AttemptTiming: Codable, Equatable, Sendable {
    public var sentAt: Double?
    public var recordingOrigin: Double?
    public var speechStart: Double?
    public var speechEnd: Double?
    public var cueRequestedAt: Double?
    public var cueOnset: Double?
    /// The flip sequence of the first frame that showed the cue.
    public var cueFrame: UInt64?
    /// Seconds from the recording's origin to the cue's onset.
    public var cueOnTimeline: Double?
    public var responseStart: Double?
    public var responseEnd: Double?
}

/// One sent challenge in the session's history.
public struct AttemptRecord: Codable, Equatable, Sendable, Identifiable {
    /// 1-based, unique in the session.
    public let id: Int
    public let generation: UInt64
    public let snapshot: ChallengeSnapshot
    public internal(set) var verdicts: [VerdictChange] = []
    public internal(set) var interruption: InterruptionReason?
    public internal(set) var media: MediaState
    public internal(set) var timing = AttemptTiming()

    /// The latest verdict; nil while awaiting the host.
    public var verdict: Verdict? { verdicts.last?.verdict }

    /// Pass or fail: the attempt used one of the turn's scored challenges.
    public var isScored: Bool { verdict == .pass || verdict == .fail }

    public var points: Int { verdict == .pass ? 1 : 0 }
}
