/// The two streams of a recording.
public enum RecordedStream: String, Sendable, Codable {
    case video
    case audio
}

/// Queue depth and losses when the encoder falls behind the camera.
public struct WriterPressure: Sendable, Equatable {
    /// Video frames waiting for the encoder when this was reported.
    public var queuedFrames: Int
    public var queueLimit: Int
    /// Video frames dropped so far because the queue was full.
    public var droppedFrames: Int
    /// Audio chunks dropped so far because the queue was full.
    public var droppedAudioChunks: Int
}

/// Why a recording ended by itself, before `finish()`.
public enum RecorderStop: Sendable, Equatable, CustomStringConvertible {
    /// Free space fell below the minimum; the file was closed cleanly and is playable.
    case diskFull(available: UInt64, minimum: UInt64)
    /// Writing or encoding failed; the file plays up to its last complete fragment.
    case failed(MediaError)

    public var description: String {
        switch self {
        case let .diskFull(available, minimum):
            return "Recording stopped: only \(MediaError.megabytes(available)) free, "
                + "\(MediaError.megabytes(minimum)) must stay free"
        case let .failed(error): return "Recording stopped: \(error)"
        }
    }
}

/// What the recorder tells its caller; read with `Recorder.takeEvents(now:)`.
public enum RecorderEvent: Sendable, Equatable {
    /// The queue is over half full, or frames were dropped.
    case writerPressure(WriterPressure)
    /// A stream delivered nothing for longer than the stall limit (`lastTimestamp` is
    /// nil when it never delivered anything).
    case streamStalled(RecordedStream, lastTimestamp: Double?, silentFor: Double)
    /// The recording ended by itself; `finish()` returns what was written.
    case stopped(RecorderStop)
}
