import Media

/// The replay open on the clips screen: which clip, where it is on the one clock,
/// and the pictures the decoder has sent ahead. Loop-owned; changed only by the
/// stage (keys, clicks, pictures handed in).
package struct ClipReplay {
    package let id: String
    package let title: String
    /// The clip's stored cue (Visual S/Z), nil for any other clip.
    package let cue: ClipCue?
    /// The file being decoded: a cue export has the letter in its pictures already.
    package var source = ReplaySource.recording
    package var clock: ReplayClock
    package var pictures = ReplayPictureQueue()
    /// Shown over the whole inner display rather than inside the screen.
    package var fullScreen = false
    /// Every picture has been handed in.
    package var decoderEnded = false
    package var failure: String?
    /// The position the last play asked the sound to start at, until the output says
    /// when that sample reached the DAC (`RigStage.replaySoundStarted`).
    package var soundFrom: Double?
    /// How far the clock was moved to follow the sound when it started (s; positive:
    /// the sound came later than the picture had started). For status and tests.
    package var soundShift: Double?
    /// Clip seconds decoded ahead of the position.
    package static let lead = 0.5

    package init(id: String, title: String, duration: Double, cue: ClipCue? = nil) {
        self.id = id
        self.title = title
        self.cue = cue
        clock = ReplayClock(duration: duration)
    }

    /// The letter to draw over `picture`: the recording's pictures whose time lies in the
    /// stored cue interval, as the cue export chooses the pictures it burns the letter
    /// into. None over a cue export's, which show it already.
    package func cueLetter(over picture: ReplayPicture?) -> Character? {
        guard source == .recording, let cue, let picture, cue.interval.contains(picture.time) else { return nil }
        return cue.letter
    }

    /// What the console shows of it in a frame.
    package struct Shown: Equatable {
        package var id: String
        package var title: String
        package var playing: Bool
        package var position: Double
        package var duration: Double
        package var fullScreen: Bool
        package var failure: String?
        /// The picture's index in the clip, nil before the first.
        package var pictureIndex: Int?
        /// The cue letter drawn over the picture (`cueLetter(over:)`).
        package var cue: Character?
    }
}
