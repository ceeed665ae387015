/// One stream of a media file as FFmpeg describes it.
public struct MediaStreamInfo: Sendable, Equatable {
    public var index: Int
    /// Video or audio; nil for data and subtitle streams.
    public var kind: RecordedStream?
    /// FFmpeg's codec name: "h264", "aac".
    public var codecName: String
    /// Seconds, from the stream header or the last packet.
    public var duration: Double?
    /// The time of the first packet, seconds.
    public var startTime: Double?
    public var width: Int
    public var height: Int
    public var sampleRate: Int
    public var channels: Int
}

/// A decoded picture: one byte per pixel (luma) or three (RGB), top row first.
public struct DecodedVideoFrame: Sendable {
    public enum Layout: Sendable { case luma, rgb }

    /// Seconds on the file's timeline.
    public var time: Double
    public var width: Int
    public var height: Int
    public var layout: Layout
    public var pixels: [UInt8]

    public var bytesPerPixel: Int { layout == .luma ? 1 : 3 }

    public func pixel(x: Int, y: Int) -> ArraySlice<UInt8> {
        let start = (y * width + x) * bytesPerPixel
        return pixels[start..<(start + bytesPerPixel)]
    }
}

/// Decoded sound: interleaved float samples from `startTime` on the file's timeline.
public struct DecodedAudio: Sendable {
    public var sampleRate: Int
    public var channels: Int
    public var startTime: Double
    public var samples: [Float]

    public var frameCount: Int { samples.count / max(1, channels) }
}

/// A packet as stored: its time, size and a checksum of its bytes (to show a stream
/// was copied unchanged).
public struct PacketSummary: Sendable, Equatable {
    public var time: Double
    public var size: Int
    public var checksum: UInt64
}
