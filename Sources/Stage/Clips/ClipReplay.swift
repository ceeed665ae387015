import Media

/// The replay open on the clips screen: which clip, where it is on the one clock,
/// and the pictures the decoder has sent ahead. Loop-owned; changed only by the
/// stage (keys, clicks, pictures handed in).
package struct ClipReplay {
    package let id: String
    package let title: String
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

    package init(id: String, title: String, duration: Double) {
        self.id = id
        self.title = title
        clock = ReplayClock(duration: duration)
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
    }
}
