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
    public private(set) var latestAudio: Double?
    public private(set) var latestVideo: Double?

    public init(origin: Double) {
        self.origin = origin
    }

    /// The recorder accepted samples of `stream` up to `time` (CLOCK_MONOTONIC). Media
    /// never goes back: an older report changes nothing.
    public mutating func accept(_ stream: MediaStream, upTo time: Double) {
        switch stream {
        case .audio: latestAudio = max(latestAudio ?? time, time)
        case .video: latestVideo = max(latestVideo ?? time, time)
        }
    }

    /// Seconds of the timeline both streams have covered; nil until both delivered.
    public var position: Double? {
        guard let audio = latestAudio, let video = latestVideo else { return nil }
        return max(0, min(audio, video) - origin)
    }

    /// Both streams have covered the moment `time`.
    public func covers(_ time: Double) -> Bool {
        guard let position else { return false }
        return position >= time - origin
    }

    public var leadInComplete: Bool { covers(origin + Self.leadIn) }

    /// The stream holding the timeline back: the one with no media, or the older one.
    public var laggingStream: MediaStream {
        switch (latestAudio, latestVideo) {
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
