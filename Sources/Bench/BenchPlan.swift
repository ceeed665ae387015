import Kiosk
import Stage

/// How much of each case one run measures. `--quick` keeps every kind of figure but
/// fewer samples and fewer transform combinations, so it finishes in under a minute
/// on the 2-core machine; the full run measures all 16 combinations.
struct BenchPlan: Sendable {
    static let sizes = [20, 60, 120]

    var quick: Bool
    /// Run the Pango and GStreamer peers (`--no-peers`: rig's own cases only).
    var peers = true

    var floorFrames: Int { quick ? 30 : 200 }
    var composeFrames: Int { quick ? 20 : 120 }
    /// Enough untimed frames to rasterize the chunks around the viewport, so the
    /// samples are the steady state of scrolling, which is what the display sees.
    var composeWarmup: Int { quick ? 3 : 10 }
    var layoutRepeats: Int { quick ? 2 : 5 }
    /// Frame-to-frame steps per smoothness row (each row composes one frame more).
    var smoothnessFrames: Int { quick ? 20 : 60 }
    var firstFrameRepeats: Int { quick ? 1 : 3 }
    var cameraFrames: Int { quick ? 40 : 200 }
    var speechRuns: Int { quick ? 10 : 40 }
    /// Seconds of the recording load (camera, preview, recorder and prompter at once).
    var recordingLoadSeconds: Double { quick ? 4 : 10 }

    /// Quick: identity, the three single transforms a rig actually uses (mirror for a
    /// beam splitter, flip for an upside-down monitor, a quarter turn for portrait).
    var transforms: [BenchReport.Transform] {
        guard quick else { return BenchReport.Transform.all }
        return [.identity,
                .init(mirror: true, flip: false, rotation: 0),
                .init(mirror: false, flip: true, rotation: 0),
                .init(mirror: false, flip: false, rotation: 90)]
    }

    /// The peers' own sample counts follow ours.
    var peerArguments: [String] { quick ? ["--quick"] : [] }
}
