import Render

/// What one frame showed, returned by the frame that drew it, so the loop learns at
/// its flip what reached the glass: tap latency ends at the first frame showing a
/// tap's pause, camera latency at the frame showing a camera frame.
package struct FrameReport {
    package let role: DisplayRole
    /// The presentation time the frame was drawn for.
    package let time: Double
    /// Something differs from the display's previous frame (or it had to be drawn).
    package var changed = false
    /// Nothing was drawn: the buffer's frame prepared ahead is this frame (flip it).
    package var fromPrepared = false
    /// Drawn ahead for a cue not yet requested: its attempt generation and id.
    package var preparedCue: (generation: UInt64, cue: UInt64)?
    /// The outer frame shows a pause made by the talent's tap.
    package var showsTapPause = false
    /// The camera frame in the outer frame's preview, nil when the preview is not shown.
    package var cameraFrame: CameraFrame?
    /// The game's cue (attempt generation and cue id) this outer frame shows.
    package var cue: (generation: UInt64, cue: UInt64)?
    /// The outer frame is the game's participant view.
    package var showsGame = false
    package var cameraSequence: UInt32? { cameraFrame?.sequence }
    /// Where the inner frame put the camera thumbnail (nil: not shown).
    package var thumbnail: PixelRect?
    /// The self-test's card this frame showed (nil: none): its taps counted end the
    /// tap-to-flip latency at the flip.
    package var selfTestCard: SelfTestCardShown?
    /// The console as this inner frame built it: its targets for clicks and focus.
    package var console: ConsoleBuild?
    /// Pixels the frame drew: all of them, or what changed since the frame its buffer
    /// held (the console).
    package var pixelsDrawn = 0
}

/// The operator console's controls as one inner frame laid them out, and the label
/// cache and theme it measured text with (the editor's caret finds a click's column).
package struct ConsoleBuild {
    package var targets: WidgetTargets
    package var labels: LabelCache
    package var theme: WidgetTheme
}
