/// What a finished recording holds; also the recorder's part of the JSON beside it.
public struct RecordingResult: Sendable, Equatable, Codable {
    public var path: String
    /// Seconds of the timeline the file covers (last frame end or last sample).
    public var duration: Double
    /// CLOCK_MONOTONIC seconds that are time zero in the file.
    public var origin: Double
    public var videoFrames: Int
    /// Frames lost to writer pressure.
    public var droppedFrames: Int
    /// Frames refused: before the origin, out of order, or not the recorded size.
    public var rejectedFrames: Int
    public var audioSamples: Int64
    public var droppedAudioChunks: Int
    /// Capture gaps filled with silence to keep sound on the video's clock.
    public var audioGapsFilled: Int
    public var firstVideoTimestamp: Double?
    public var lastVideoTimestamp: Double?
    public var firstAudioTimestamp: Double?
    public var lastAudioTimestamp: Double?
    public var bytes: UInt64
    /// Set when the recording ended by itself (free space, a write error).
    public var stopMessage: String?
    public var settings: RecorderSettings
}

/// The JSON written beside a recording: the result plus what the caller adds.
struct RecordingMetadata: Codable {
    var recording: RecordingResult
    var annotations: [String: String]
}
