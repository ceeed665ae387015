import Stage

/// What the camera is doing, as the loop sees it.
enum CameraState: Sendable, Equatable, CustomStringConvertible {
    case starting
    case streaming(CameraMode)
    case unavailable(String)
    case stopped

    var description: String {
        switch self {
        case .starting: "starting"
        case let .streaming(mode): "streaming \(mode)"
        case let .unavailable(reason): "unavailable: \(reason)"
        case .stopped: "stopped"
        }
    }

    /// The word on the outer window's title (`rig run --backend window`); nil while
    /// streaming. `nil` state: no camera configured.
    static func note(_ state: CameraState?) -> String? {
        switch state {
        case .streaming?: nil
        case .starting?: "camera starting"
        default: "no camera"
        }
    }

    /// The upright line the preview shows instead of a picture; nil while streaming.
    var previewMessage: String? {
        switch self {
        case .streaming: nil
        case .starting: "Camera starting…"
        case .unavailable, .stopped: "Camera unavailable"
        }
    }
}
