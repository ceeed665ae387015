import Foundation

/// The recording's clock, as the recorder will keep it: seconds of media accepted into
/// the file since `origin`. Its position is the minimum of the latest accepted audio
/// and video times, so one stream's progress can never hide the other's stall.
public struct RecordingTimeline: Equatable, Sendable {
    /// Accepted audio and video before the instruction starts.
    public static let leadIn = 0.75
    /// Recorded after the response window closes.
    public static let tail = 1.5
    /// The longest recording; a challenge that would exceed it is refused.
    public static let bound = 20.0
    /// How long past its due time the lead-in or tail may wait for media before the
    /// attempt is interrupted as stalled.
    public static let stallGrace = 2.0

    public let origin: Double
    /// The streams the file has: both, or the picture alone when the host chose to
    /// record without sound. A stream the file lacks never stands in for one it has.
    public let streams: Set<MediaStream>
    public private(set) var latestAudio: Double?
    public private(set) var latestVideo: Double?

    public init(origin: Double, streams: Set<MediaStream> = [.audio, .video]) {
        self.origin = origin
        self.streams = streams
    }

    /// The recorder accepted samples of `stream` up to `time` (CLOCK_MONOTONIC). Media
    /// never goes back: an older report changes nothing.
    public mutating func accept(_ stream: MediaStream, upTo time: Double) {
        guard streams.contains(stream) else { return }
        switch stream {
        case .audio: latestAudio = max(latestAudio ?? time, time)
        case .video: latestVideo = max(latestVideo ?? time, time)
        }
    }

    /// Seconds of the timeline every stream of the file has covered; nil until each delivered.
    public var position: Double? {
        var covered = Double.infinity
        for stream in streams {
            guard let latest = stream == .audio ? latestAudio : latestVideo else { return nil }
            covered = min(covered, latest)
        }
        return covered.isFinite ? max(0, covered - origin) : nil
    }

    /// Both streams have covered the moment `time`.
    public func covers(_ time: Double) -> Bool {
        guard let position else { return false }
        return position >= time - origin
    }

    public var leadInComplete: Bool { covers(origin + Self.leadIn) }

    /// The stream holding the timeline back: the one with no media, or the older one.
    public var laggingStream: MediaStream {
        guard streams.count == 2 else { return streams.first ?? .video }
        return switch (latestAudio, latestVideo) {
        case (nil, _): .audio
        case (_, nil): .video
        case let (audio?, video?): audio <= video ? .audio : .video
        }
    }

    /// The recording a challenge needs: lead-in, speech, the wait for the cue (Visual
    /// S/Z, at most the acknowledgement limit), the response window, the tail.
    public static func length(speech: Double, response: Double, visual: Bool) -> Double {
        leadIn + speech + (visual ? CueHandshake.acknowledgementLimit : 0) + response + tail
    }

    /// Speech time before synthesis, from the word count at the set speed; the exact
    /// duration is checked again once the speech is prepared.
    public static func estimatedSpeech(_ text: String, wordsPerMinute: Int) -> Double {
        let words = text.split(whereSeparator: { $0.isWhitespace }).count
        return Double(words) * 60 / Double(max(1, wordsPerMinute))
    }
}
