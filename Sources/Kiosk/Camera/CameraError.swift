import Foundation
import Stage

/// Why the camera is not delivering frames. Each case reads as the reason shown on
/// the inner display and in `rig ctl status`.
enum CameraError: Error, Equatable, CustomStringConvertible {
    case missing(path: String)
    case openFailed(path: String, errno: Int32)
    case notACaptureDevice(path: String)
    case noUsableFormat(path: String, offered: [String])
    case ioctlFailed(request: String, errno: Int32)
    case mapFailed(errno: Int32)
    case disconnected(errno: Int32)
    case stalled(seconds: Double)

    var description: String {
        switch self {
        case let .missing(path): "no camera at \(path)"
        case let .openFailed(path, code): "cannot open \(path): \(String(cString: strerror(code)))"
        case let .notACaptureDevice(path): "\(path) is not a video capture device"
        case let .noUsableFormat(path, offered):
            "\(path) offers no format rig can convert (offered: \(offered.isEmpty ? "none" : offered.joined(separator: ", ")))"
        case let .ioctlFailed(request, code): "\(request) failed: \(String(cString: strerror(code)))"
        case let .mapFailed(code): "cannot map capture buffers: \(String(cString: strerror(code)))"
        case let .disconnected(code): "camera disconnected (\(String(cString: strerror(code))))"
        case let .stalled(seconds): "no frames for \(Int(seconds)) s"
        }
    }
}
