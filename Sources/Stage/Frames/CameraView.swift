import Render

/// What the camera adds to a frame: the newest frame and what is drawn over it
/// (compared by what `SceneCameraKey` keeps of it).
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
