import Game
import Media
import Prompter
import Render

/// What the stage hands the renderer for one frame beyond the prompter: the inner
/// console's view (values, compared as part of the frame's input) and the camera's
/// (pictures, compared by what `SceneCameraKey` keeps of them).
extension SceneRenderer {
    /// What the inner display's console shows beyond the prompter, as values at the
    /// frame's time.
    package struct InnerView: Equatable {
        package var console: ConsoleState
        package var listing: LibraryListing
        /// The outer display's flags and mode (its flip counters are left out: they
        /// change with every outer frame and the console shows none of them).
        package var outer: DisplayStatus?
        package var cameraState: String?
        package var game: GameConsoleView = .none
        /// The timers line: elapsed, remaining, the end's clock time and the wall clock.
        package var timers: TimersShown?
        package var clips: InnerClips?
        /// Voice follow's heard words and confidence; nil when follow is off.
        package var follow: FollowShown?
        /// The title of the script a rename or move dialog is about.
        package var dialogScript: String?
        /// The network remote's pairing and phones, for the Settings screen (nil: remote off).
        package var remote: RemoteAccessShown?
        /// The hand controllers and their maps, for the Settings screen.
        package var controllers: ControllersShown?

        package init(console: ConsoleState, listing: LibraryListing, outer: DisplayStatus?, cameraState: String?,
                     game: GameConsoleView = .none, timers: TimersShown? = nil, follow: FollowShown? = nil,
                     dialogScript: String? = nil) {
            self.console = console
            self.listing = listing
            // A new status carries no flip counters: only what the console shows is compared.
            self.outer = outer.map {
                DisplayStatus(connector: $0.connector, connected: $0.connected, available: $0.available,
                              enabled: $0.enabled, mode: $0.mode)
            }
            self.cameraState = cameraState
            self.game = game
            self.timers = timers
            self.follow = follow
            self.dialogScript = dialogScript
        }
    }

    /// The Clips screen's data for one inner frame: the list, the replay (its position
    /// to the whole second, as shown), its picture due now (compared by its place in
    /// the clip).
    package struct InnerClips: Equatable {
        package var input: ClipsInput
        package var replay: ClipReplay.Shown?
        package var picture: ReplayPicture?

        package init(input: ClipsInput, replay: ClipReplay.Shown?, picture: ReplayPicture?) {
            self.input = input
            self.replay = replay.map { shown in
                var whole = shown
                whole.position = shown.position.rounded(.down)
                return whole
            }
            self.picture = picture
        }

        package static func == (a: InnerClips, b: InnerClips) -> Bool {
            a.input == b.input && a.replay == b.replay && a.picture?.index == b.picture?.index
        }
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
