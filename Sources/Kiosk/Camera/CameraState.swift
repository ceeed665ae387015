import Stage

/// What the camera is doing, as the loop sees it.
enum CameraState: Sendable, Equatable, CustomStringConvertible {
    case starting
    /// Streaming in `mode` from the camera `identity` (CameraDevice.identity).
    case streaming(CameraMode, identity: String = "")
    case unavailable(String)
    case stopped

    var description: String {
        switch self {
        case .starting: "starting"
        case let .streaming(mode, _): "streaming \(mode)"
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

    /// Which camera streams (its name, bus and serial), nil while none does: the game
    /// interrupts an attempt when another camera takes the same path.
    var identity: String? {
        if case let .streaming(_, identity) = self { identity } else { nil }
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
