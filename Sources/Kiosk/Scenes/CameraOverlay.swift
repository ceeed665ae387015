/// What is drawn upright over the talent's mirrored camera preview. The game sets
/// all of it; the framing check shows only the status line (and a cue on request).
struct CameraOverlay: Equatable, Sendable {
    var status: String?
    /// Seconds left, shown large; nil when no countdown runs.
    var countdown: Int?
    var recording = false
    /// The cue letter (S or Z in the game), on a yellow badge.
    var cue: Character?
}
