/// How the picture is compressed: x264's constant quality or an average bitrate.
public enum VideoQuality: Sendable, Equatable, Codable {
    /// x264 CRF, 0 (lossless) to 51; 23 is x264's default.
    case constantQuality(Double)
    /// Average bits per second.
    case bitrate(Int)
}

/// What the recorder produces; `[recording]` in rig.toml maps onto these.
public struct RecorderSettings: Sendable, Equatable, Codable {
    /// x264 preset: ultrafast ... veryslow.
    public var preset: String = "veryfast"
    public var quality: VideoQuality = .constantQuality(23)
    /// The camera's nominal rate; sets the keyframe interval in frames and x264's
    /// rate-control assumptions. Timestamps still come from the frames (variable rate).
    public var nominalFrameRate: Int = 30
    /// Seconds between keyframes (where a player can start or seek).
    public var keyframeSeconds: Double = 1.0
    /// At most this many seconds of media per fragment: each fragment is written and
    /// fsynced as it is cut, so a crash or power cut loses at most this plus x264's
    /// lookahead (10 frames at veryfast), about 0.85 s with the defaults.
    public var fragmentSeconds: Double = 0.5
    /// Encoder threads; 0 lets x264 choose.
    public var threads: Int = 0
    public var audioBitrate: Int = 128_000
    /// The AAC stream's rate; captured audio is resampled to it.
    public var audioSampleRate: Int = 48_000
    /// Video frames waiting for the encoder before new ones are dropped (writer pressure).
    public var queueLimit: Int = 30
    /// A stream silent for longer than this (seconds) is reported as stalled.
    public var stallLimit: Double = 0.5
    /// Recording refuses to start, and stops, when the folder has less free space.
    public var minimumFreeBytes: UInt64 = 512 * 1_048_576
    /// A jump in audio capture times beyond this (seconds) is filled with silence
    /// (forward) or trimmed (backward) so sound stays on the video's clock.
    public var audioGapTolerance: Double = 0.1

    public init() {}
}

/// The picture the recorder expects: every frame must match.
public struct VideoTrackFormat: Sendable, Equatable, Codable {
    public var format: RecordedPixelFormat
    public var width: Int
    public var height: Int

    public init(format: RecordedPixelFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }
}

/// The captured sound: interleaved s16 at this rate and channel count.
public struct AudioTrackFormat: Sendable, Equatable, Codable {
    public var sampleRate: Int
    public var channels: Int

    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }
}

/// The recorder's video queue at one moment (`Recorder.videoQueue`).
public struct RecorderQueueFill: Sendable, Equatable {
    /// Frames waiting for the encoder.
    public var queued: Int
    /// At this many, new frames are dropped.
    public var limit: Int
    /// Frames dropped so far because the queue was full.
    public var dropped: Int
    /// Still taking frames (not finishing or ended).
    public var recording: Bool

    public init(queued: Int, limit: Int, dropped: Int = 0, recording: Bool = true) {
        self.queued = queued
        self.limit = limit
        self.dropped = dropped
        self.recording = recording
    }
}
