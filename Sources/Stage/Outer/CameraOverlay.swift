/// What is drawn upright over the talent's mirrored camera preview. The game sets
/// all of it; the framing check shows only the status line (and a cue on request).
package struct CameraOverlay: Equatable, Sendable {
    package var status: String?
    /// Seconds left, shown large; nil when no countdown runs.
    package var countdown: Int?
    package var recording = false
    /// The cue letter (S or Z in the game), on a yellow badge.
    package var cue: Character?
    /// A smaller second line under the status (the game's framing guidance).
    package var note: String?
    /// "Tap to stop", drawn while the participant's tap stops the game's attempt.
    package var stopControl = false
    /// The picture is not shown at all (the game's waiting card: not asked yet).
    package var hidesCamera = false

    package init(status: String? = nil, countdown: Int? = nil, recording: Bool = false, cue: Character? = nil,
                 note: String? = nil, stopControl: Bool = false, hidesCamera: Bool = false) {
        self.status = status
        self.countdown = countdown
        self.recording = recording
        self.cue = cue
        self.note = note
        self.stopControl = stopControl
        self.hidesCamera = hidesCamera
    }
}
