/// Where the prompter's transport is. `stopped` is at the top (or at the end after an
/// auto-stop, see `PrompterEngine.isEnded(at:)`); `paused` keeps its position.
public enum TransportState: String, Codable, Sendable {
    case stopped
    case playing
    case paused
}
