import Media

/// Why a take could not start, or why it ended early; each says what to do next.
enum RecordingError: Error, Equatable, CustomStringConvertible {
    case disabled
    case busy(generation: Int)
    case noCamera(String)
    case unrecordableFormat(String)
    case folder(path: String, reason: String)
    case recorder(MediaError)
    case notCurrent(generation: Int)
    case noClip(String)
    case noMedia(String)
    case clipInUse(String, [String])
    case exportNotPossible(String)
    case exportNotReady(String, String)
    case exportReadOnly(String)
    case exportFull(String, needs: UInt64, free: UInt64)
    case exportFailed(destination: String, reason: String)

    /// "12.3 MB".
    static func megabytes(_ bytes: UInt64) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }

    var description: String {
        switch self {
        case .disabled: "recording is off ([recording] enabled = false in rig.toml)"
        case let .busy(generation): "a take is already running (generation \(generation)); stop it first"
        case let .noCamera(state): "no camera picture to record (camera: \(state))"
        case let .unrecordableFormat(format):
            "the camera delivers \(format), which the recorder does not take"
        case let .folder(path, reason): "recordings folder \(path): \(reason)"
        case let .recorder(error): "\(error)"
        case let .notCurrent(generation): "no take with generation \(generation) is running"
        case let .noClip(id): "no clip \"\(id)\" in the recordings folder (rig ctl clips list)"
        case let .noMedia(id): "clip \"\(id)\" has no media any more (retention removed them); its metadata is kept"
        case let .clipInUse(id, users): "clip \"\(id)\" is in use (\(users.joined(separator: ", "))); try again when that ends"
        case let .exportNotPossible(reason): reason
        case let .exportNotReady(id, reason): "clip \"\(id)\" is not exported: \(reason)"
        case let .exportReadOnly(folder):
            "\(folder) is read-only (a stick with its write-protect switch on?): nothing was copied"
        case let .exportFull(folder, needs, free):
            "\(folder) is full: the clip needs \(Self.megabytes(needs)), \(Self.megabytes(free)) are free; nothing was copied"
        case let .exportFailed(destination, reason):
            "copying to \(destination) failed: \(reason); the clip on the rig is intact"
        }
    }
}
