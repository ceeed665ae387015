import Foundation

/// What the participant's display shows over the mirrored camera preview: the seed's
/// four fields and nothing else. It never carries the host's selection or the rule of
/// an unsent challenge, so the outer display cannot give the answer away.
public struct ParticipantPresentation: Equatable, Sendable {
    public var status: String
    /// Whole seconds left in the response window, counting down; nil outside it.
    public var countdown: Int?
    /// The recording indicator.
    public var recording: Bool
    /// The letter to draw this frame (Visual S/Z), from the request until its duration
    /// after the onset.
    public var cue: CueLetter?

    public static let waiting = "Waiting for the host"
    public static let getReady = "Get ready"
    public static let listen = "Listen…"
    public static let yourTurn = "Your turn"
    public static let timeUp = "Time's up"
}

extension GameSession {
    /// The participant view for a frame presented at `time` (the predicted flip time).
    public func participantPresentation(at time: Double) -> ParticipantPresentation {
        guard let active else {
            return ParticipantPresentation(status: ParticipantPresentation.waiting, countdown: nil,
                                           recording: false, cue: nil)
        }
        let recording = active.recording && phase != .preparing
        var view = ParticipantPresentation(status: ParticipantPresentation.getReady, countdown: nil,
                                           recording: recording, cue: nil)
        switch phase {
        case .speech:
            view.status = ParticipantPresentation.listen
        case .cue:
            view.status = ParticipantPresentation.listen
            view.cue = active.snapshot.cue?.letter
        case .response:
            view.status = ParticipantPresentation.yourTurn
            if let end = active.responseEnd { view.countdown = max(0, Int((end - time).rounded(.up))) }
            if let hide = active.cueHideAt, time < hide { view.cue = active.snapshot.cue?.letter }
        case .tail:
            view.status = ParticipantPresentation.timeUp
        default:
            break
        }
        return view
    }
}

extension GameSession {
    /// The cue that comes next while a Visual S/Z instruction is being spoken: its id
    /// and what the participant view will show from its request (the stage draws that
    /// frame ahead, so its flip can follow the request at once). Nil outside the speech
    /// of a challenge with a cue. The id is the one `speechFinished` will give it.
    /// The active attempt's speech length, once synthesized (its DAC end is its first
    /// sample's time plus this).
    public var activeSpeechDuration: Double? { active?.speechDuration }

    public var upcomingCue: (generation: UInt64, cue: UInt64, presentation: ParticipantPresentation)? {
        guard phase == .speech, let active, let letter = active.snapshot.cue?.letter else { return nil }
        let presentation = ParticipantPresentation(status: ParticipantPresentation.listen, countdown: nil,
                                                   recording: active.recording, cue: letter)
        return (active.generation, lastCueID + 1, presentation)
    }
}
