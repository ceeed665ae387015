import Foundation

/// The running attempt's moving parts, alive from Send until review or interruption.
/// Never saved: capture is never restored.
struct ActiveAttempt: Equatable, Sendable {
    /// Index into `GameSession.attempts`.
    let index: Int
    let generation: UInt64
    let snapshot: ChallengeSnapshot
    /// What Retry puts back into the picker (a drawn rule is drawn again).
    let selection: ChallengeSelection
    /// The camera the attempt records from; another one appearing is an interruption.
    let cameraID: String?
    var speechDuration: Double?
    var timeline: RecordingTimeline?
    var cue: CueHandshake?
    var cueHideAt: Double?
    var responseEnd: Double?
    /// The recorder was asked to finalize; waiting for `recordingFinalized`.
    var finalizing = false

    var recording: Bool { snapshot.recording }

    /// When the lead-in must be complete before the attempt counts as stalled.
    var leadInDeadline: Double? {
        timeline.map { $0.origin + RecordingTimeline.leadIn + RecordingTimeline.stallGrace }
    }

    /// The moment on the timeline the tail must reach.
    var tailEnd: Double? {
        responseEnd.map { $0 + RecordingTimeline.tail }
    }
}
