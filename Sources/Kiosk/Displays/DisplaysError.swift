import Stage

/// Why displays could not be driven, in words an operator can act on.
enum DisplaysError: Error, Equatable, CustomStringConvertible {
    case noDevice(searched: String)
    case openFailed(path: String, reason: String)
    case notDRM(path: String)
    case masterHeld(path: String)
    case unknownConnector(role: DisplayRole, name: String, existing: [String])
    case sameConnector(String)
    case noCrtc(inner: String, outer: String)
    case kernel(call: String, reason: String)
    case seat(String)
    /// The window backend: no desktop to open windows on, or SDL refused one.
    case window(String)

    var description: String {
        switch self {
        case let .noDevice(searched):
            "no DRM device found (searched \(searched)); is a GPU driver loaded?"
        case let .openFailed(path, reason):
            "cannot open \(path): \(reason)"
        case let .notDRM(path):
            "\(path) is not a KMS device (it has no connectors or CRTCs)"
        case let .masterHeld(path):
            "\(path) is in use by another display server (it holds DRM master); stop it or switch VT — retrying"
        case let .unknownConnector(role, name, existing):
            "\(role) display: no connector named \"\(name)\"; this machine has: "
                + (existing.isEmpty ? "none" : existing.joined(separator: ", "))
        case let .sameConnector(name):
            "inner and outer are both set to connector \(name); they must be different"
        case let .noCrtc(inner, outer):
            "the GPU cannot drive \(inner) and \(outer) at the same time (no two free CRTCs reach them)"
        case let .kernel(call, reason):
            "\(call) failed: \(reason)"
        case let .seat(reason):
            "seat: \(reason)"
        case let .window(reason):
            "window: \(reason)"
        }
    }
}
