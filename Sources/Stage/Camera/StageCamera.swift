/// What the stage knows of the camera: its input (state, identity, latest frame), the
/// outer preview converted off the loop for that frame, and the operator's overlay; and
/// the camera as a frame shows it.
package struct StageCamera {
    package private(set) var input: CameraInput
    /// The outer preview of `input.frame` (nil: none was made for it).
    package private(set) var preview: CameraPreviewPicture?
    /// Drawn over the camera preview: the framing check's status line, a cue on request.
    package var overlay = CameraOverlay()
    /// In the game the host's preview shows every this many camera frames (30 fps
    /// becomes 7.5): the console is the costly frame to draw, and a preview needs no more.
    static let innerEveryInGame: UInt32 = 4

    init(configured: Bool) {
        input = configured ? .unavailable : .none
    }

    /// The camera's new state. A camera that stopped streaming is still the one last
    /// seen: its loss is "lost", and only another camera streaming is "replaced".
    mutating func changed(to new: CameraInput) {
        let seen = input.identity
        input = new
        if input.identity == nil { input.identity = seen }
        if preview?.sequence != new.frame?.sequence { preview = nil }
    }

    mutating func arrived(_ frame: CameraFrame, preview: CameraPreviewPicture?) {
        input.frame = frame
        self.preview = preview
    }

    /// The overlay outside the game: the operator's, with the framing check's or the
    /// self-test's status and the take's countdown or REC mark.
    func prompterOverlay(framing: Bool, selfTest: Bool, take: TakeShown) -> CameraOverlay {
        var shown = overlay
        if input.live && framing && shown.status == nil { shown.status = "Framing check" }
        if selfTest { shown.status = "Self-test: camera" }
        switch take {
        case .recording: shown.recording = true
        case let .countdown(seconds): shown.countdown = seconds
        case .none: break
        }
        return shown
    }

    /// The camera as a frame shows it under `overlay`: nothing of it, not even a stale
    /// picture, under one that hides it (the game's waiting card).
    func view(overlay: CameraOverlay, mirror: Bool, onOuter: Bool, inGame: Bool) -> CameraView {
        let hidden = overlay.hidesCamera
        var view = CameraView(frame: hidden ? nil : input.frame, message: hidden ? nil : input.message,
                                            mirror: mirror, overlay: overlay, onOuter: onOuter)
        view.preview = hidden ? nil : preview
        view.innerCameraEvery = inGame ? Self.innerEveryInGame : 1
        return view
    }
}
