/// A sound device's state as the kiosk reports it (status `audio.output.state`).
enum AudioDeviceState: Equatable, Sendable, CustomStringConvertible {
    case starting
    /// Open and configured; playing or capturing when `active`.
    case ready(ALSAPCM.Setup, active: Bool)
    case unavailable(String)
    case stopped

    var name: String {
        switch self {
        case .starting: "starting"
        case let .ready(_, active): active ? "active" : "idle"
        case .unavailable: "unavailable"
        case .stopped: "stopped"
        }
    }

    var description: String {
        switch self {
        case let .ready(setup, active): "\(active ? "active" : "idle") (\(setup))"
        case let .unavailable(reason): "unavailable: \(reason)"
        default: name
        }
    }

    var isUnavailable: Bool { if case .unavailable = self { true } else { false } }
}

/// What became of one clip handed to the output, with the times on CLOCK_MONOTONIC.
enum PlaybackReport: Equatable, Sendable {
    /// The first sample reaches the DAC at `time` (predicted from ALSA's status; known
    /// up to a buffer ahead).
    case started(id: Int, time: Double)
    /// The last sample reaches the DAC at `time`.
    case ended(id: Int, time: Double)
    /// The clip did not play to its end: the device went away, it was stopped, or it
    /// could not be converted.
    case failed(id: Int, reason: String)
    /// A stream ran dry and went on `seconds` later than its first sample's time said.
    case slipped(id: Int, seconds: Double)

    var id: Int {
        switch self {
        case let .started(id, _), let .ended(id, _), let .failed(id, _), let .slipped(id, _): id
        }
    }
}
