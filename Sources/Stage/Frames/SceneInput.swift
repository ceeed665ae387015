import Prompter
import Render

/// What a frame depends on. Equal keys mean equal pixels.
struct SceneFrameKey: Equatable {
    var offsetRow: Int
    var state: TransportState
    var speed: Int
    var settings: ReadingSettings
    var scriptID: String?
    var layoutGeneration: Int
    /// The end of the text: a long layout finishing in slices moves it, and with it
    /// the console's progress, words per minute and time left.
    var maxOffset: Double
    var pausedByTap: Bool
    var blanked: Bool
    var mode: PrompterController.Mode
    var problems: Int
    var outerShowsContent: Bool
    var camera: SceneCameraKey
    var cameraOnOuter: Bool
    /// The console's own state and what only it shows (inner display only).
    var console: Int
    var innerFacts: [String]
    var take: TakeShown
    var prompting: PromptingOverlay.Shown
}

/// What of the camera a frame shows.
struct SceneCameraKey: Equatable {
    var sequence: UInt32?
    var message: String?
    var overlay: CameraOverlay
}
