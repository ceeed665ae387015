import Game
import Media
import Prompter
import Render

/// What the stage hands the renderer for one frame beyond the prompter state: the
/// inner console's view, the Clips screen's data and the camera's.
extension SceneRenderer {
    /// What the inner display's console needs beyond the prompter state.
    package struct InnerView {
        package var console: ConsoleState
        /// Bumped by the console on every change of its own.
        package var consoleGeneration: Int
        package var listing: LibraryListing
        package var outer: DisplayStatus?
        package var elapsed: Double
        package var cameraState: String?
        package var game: GameConsoleView = .none
        /// Elapsed, remaining, the end's clock time and the wall clock.
        package var timers: PrompterTimers?
        package var clips: InnerClips?
        /// Voice follow's heard words and confidence; nil when follow is off.
        package var follow: FollowShown?
    }

    /// The Clips screen's data for one inner frame: the list, the replay, its picture due now.
    package struct InnerClips {
        package var input: ClipsInput
        package var replay: ClipReplay.Shown?
        package var picture: ReplayPicture?
    }

    /// What the camera adds to a frame: the newest frame and what is drawn over it.
    package struct CameraView {
        package var frame: CameraFrame?
        package var message: String?
        package var mirror: Bool
        package var overlay: CameraOverlay
        /// The outer display shows the camera (framing check, or the game's participant view).
        package var onOuter = false
        /// Keep the preview already converted even if a newer camera frame came.
        package var holdPreview = false
        /// The inner display follows every this many camera frames.
        package var innerCameraEvery: UInt32 = 1
        /// The outer preview of `frame`, converted off the loop; nil: convert it here.
        package var preview: CameraPreviewPicture?
        package static let none = CameraView(frame: nil, message: nil, mirror: true, overlay: CameraOverlay())
    }

    /// What the outer display's camera preview is drawn at.
    package struct PreviewTarget: Equatable, Sendable {
        package var size: PixelSize
        package var mirrored: Bool

        package init(size: PixelSize, mirrored: Bool) {
            self.size = size
            self.mirrored = mirrored
        }
    }
}
