import Foundation

/// What the participant's display shows over the mirrored camera preview: the seed's
/// four fields, whether the picture shows at all, a second line, and the Stop control.
/// It never carries the host's selection, the rule or the action's wording, so the
/// outer display cannot give the answer away.
public struct ParticipantPresentation: Equatable, Sendable {
    public var status: String
    /// Whole seconds left in the response window, counting down; nil outside it.
    public var countdown: Int?
    /// The recording indicator.
    public var recording: Bool
    /// The letter to draw this frame (Visual S/Z), from the request until its duration
    /// after the onset.
    public var cue: CueLetter?
    /// The live picture is shown. False while the player whose turn it is has not been
    /// asked about recording: the waiting card instead, so nobody is on camera unasked.
    public var camera = true
    /// A second line under the status: the card's framing guidance from Send until the
    /// instruction has been said, or why the camera is off.
    public var note: String?
    /// "Tap to stop" is drawn: an attempt runs and the participant's display has a
    /// touchscreen to stop it with.
    public var stop = false

    public static let waiting = "Waiting for the host"
    public static let getReady = "Get ready"
    public static let listen = "Listen…"
    public static let yourTurn = "Your turn"
    public static let timeUp = "Time's up"
    public static let askedFirst = "The camera turns on once the host has asked you about recording"
}

extension GameSession {
    /// The participant view for a frame presented at `time` (the predicted flip time).
    public func participantPresentation(at time: Double) -> ParticipantPresentation {
        guard let capture else {
            var view = ParticipantPresentation(status: ParticipantPresentation.waiting, countdown: nil,
                                               recording: false, cue: nil)
            // Agreed, or plays without recording: the live framing preview (nothing is
            // written until a recorded attempt). Not yet asked: no picture at all.
            if settings.recording && !ended && consent.answer(currentPlayer) == nil {
                view.camera = false
                view.note = ParticipantPresentation.askedFirst
            }
            return view
        }
        let recording = capture.recording && phase != .preparing
        var view = ParticipantPresentation(status: ParticipantPresentation.getReady, countdown: nil,
                                           recording: recording, cue: nil)
        view.stop = phase.isCapturing && rig.participantTouch
        switch phase {
        case .preparing, .leadIn, .speech:
            // Where to stand, until the instruction has been said (a game without
            // recording has no lead-in): the card's framing, never its action or rule.
            view.note = catalog.card(id: capture.snapshot.card.id).map { "Keep in view: \($0.framing)" }
            if phase == .speech { view.status = ParticipantPresentation.listen }
        case .cue:
            view.status = ParticipantPresentation.listen
            view.cue = capture.snapshot.cue?.letter
        case .response:
            view.status = ParticipantPresentation.yourTurn
            if let end = capture.responseEnd { view.countdown = max(0, Int((end - time).rounded(.up))) }
            if let hide = capture.cueHideAt, time < hide { view.cue = capture.snapshot.cue?.letter }
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
    public var upcomingCue: (generation: UInt64, cue: UInt64, presentation: ParticipantPresentation)? {
        guard phase == .speech, let capture, let letter = capture.snapshot.cue?.letter else { return nil }
        var presentation = ParticipantPresentation(status: ParticipantPresentation.listen, countdown: nil,
                                                   recording: capture.recording, cue: letter)
        // As the cue phase will show it, so the frame drawn ahead is the one flipped.
        presentation.stop = rig.participantTouch
        return (capture.generation, capture.cueID, presentation)
    }
}
