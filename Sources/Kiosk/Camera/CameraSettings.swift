import Foundation
import Render
import Stage

/// The camera part of rig.toml: which device, and what to ask it for.
/// `device` is a path ("/dev/video0", "/dev/v4l/by-id/usb-…") or a bare `/dev/v4l/by-id`
/// name, which survives re-plugging into another USB port and boot order.
struct CameraSettings: Sendable, Equatable {
    var device: String
    var preferredWidth = 1920
    var preferredHeight = 1080
    var preferredFramesPerSecond = 30.0
    /// `.xrgb` converts on the capture thread, so the loop only mirrors and scales;
    /// `.raw` hands over the device's bytes and the loop converts while compositing;
    /// `.recordable` hands over what the recorder takes as it is (YUYV, NV12) and
    /// converts the rest, for the preview thread to convert for the displays.
    var delivery: CameraDelivery = .xrgb
    /// Frames are converted for the displays on a thread of their own (the kiosk):
    /// the outer preview reaches the loop ready to place.
    var previewThread = false
    /// While the camera is away, udev's "add" event reopens it at once; this retry
    /// covers systems where those events do not arrive (no udevd, a missed event).
    var retryInterval = 2.0

    init(device: String) { self.device = device }

    /// From rig.toml's [camera] section.
    init(_ camera: RigConfig.Camera) {
        device = camera.device
        preferredWidth = camera.width
        preferredHeight = camera.height
        preferredFramesPerSecond = Double(camera.fps)
        // The kiosk: the recorder encodes the camera's own YUYV, and the preview thread,
        // not the capture thread or the loop, converts for the displays.
        delivery = .recordable
        previewThread = true
    }

    /// One capture feeds previews and recordings, so `[recording]`'s size and rate
    /// (when set) are what the camera is asked for.
    init(_ camera: RigConfig.Camera, recording: RigConfig.Recording) {
        self.init(camera)
        guard recording.enabled else { return }
        if recording.width > 0 { preferredWidth = recording.width }
        if recording.height > 0 { preferredHeight = recording.height }
        if recording.fps > 0 { preferredFramesPerSecond = Double(recording.fps) }
    }

    static let byIDFolder = "/dev/v4l/by-id"

    /// The device node path the setting names.
    var devicePath: String {
        device.contains("/") ? device : "\(Self.byIDFolder)/\(device)"
    }
}

enum CameraDelivery: String, Sendable {
    case raw
    case xrgb
    case recordable

    /// The format frames of a device's `format` are published in.
    func published(_ format: CameraPixelFormat) -> CameraPixelFormat {
        switch self {
        case .raw: format
        case .xrgb: .xrgb
        case .recordable: RecordingTap.recordedFormat(format) == nil ? .xrgb : format
        }
    }
}
