import Prompter
import Render

/// One display's frame as values: everything its scenes read, taken at the frame's
/// time. The scenes draw from this and from the pictures it names (the reading text of
/// its layout, the camera frame of its sequence, the replay's picture), so equal inputs
/// draw equal pixels and the input is the frame's change key: nothing a scene reads can
/// be left out of it.
struct SceneInput: Equatable {
    var prompter: PrompterShown
    var outerShowsContent: Bool
    var camera: SceneCameraKey
    var cameraOnOuter: Bool
    var take: TakeShown
    var prompting: PromptingOverlay.Shown
    /// The console (inner display only).
    var inner: InnerView?
}

/// What of the camera a frame shows.
struct SceneCameraKey: Equatable {
    var sequence: UInt32?
    var message: String?
    var overlay: CameraOverlay
}
