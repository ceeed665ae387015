/// What is drawn upright over the talent's mirrored camera preview. The game sets
/// all of it; the framing check shows only the status line (and a cue on request).
package struct CameraOverlay: Equatable, Sendable {
    package var status: String?
    /// Seconds left, shown large; nil when no countdown runs.
    package var countdown: Int?
    package var recording = false
    /// The cue letter (S or Z in the game), on a yellow badge.
    package var cue: Character?

    package init(status: String? = nil, countdown: Int? = nil, recording: Bool = false, cue: Character? = nil) {
        self.status = status
        self.countdown = countdown
        self.recording = recording
        self.cue = cue
    }
}
