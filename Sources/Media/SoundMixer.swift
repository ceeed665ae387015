/// What the rig plays, mixed into one stream: mono clips at the stream's rate, each
/// with a caller's id, summed (saturating) into interleaved 16-bit frames with the
/// master volume. It counts frames, so the playback side can say when a clip's first
/// and last frame go out: `render` reports the stream frame of each.
public struct SoundMixer: Sendable {
    public enum Event: Sendable, Equatable {
        /// The clip's first sample is stream frame `frame`.
        case started(id: Int, frame: Int64)
        /// The clip's last sample is stream frame `frame`.
        case ended(id: Int, frame: Int64)
        /// Removed before its end (a newer clip replaced it, or it was stopped).
        case cancelled(id: Int)
    }

    private struct Track: Sendable {
        let id: Int
        var samples: [Int16]
        /// Frames already played and dropped from the front of `samples` (streams only).
        var dropped = 0
        let gain: Float
        let startFrame: Int64
        /// A stream whose samples are still coming (`append`): it does not end when it
        /// runs dry; samples that come after it ran dry play from the next frame on,
        /// and `append` says by how many frames the stream slipped (so whoever follows
        /// its clock can follow the slip too).
        var open = false
        var endFrame: Int64 { startFrame + Int64(dropped + samples.count) }
    }

    public let channels: Int
    /// Master gain, 0...1, applied linearly.
    public var volume: Float
    /// Frames rendered so far: the stream frame the next `render` starts at.
    public private(set) var position: Int64 = 0
    private var tracks: [Track] = []

    public init(channels: Int, volume: Float = 1) {
        self.channels = max(1, channels)
        self.volume = min(max(volume, 0), 1)
    }

    public var isIdle: Bool { tracks.isEmpty }
    public var activeIDs: [Int] { tracks.map(\.id) }

    /// Queues `samples` to start at stream frame `at` (default: the next frame rendered).
    /// Returns the frame it starts at. An empty clip is not queued and returns nil.
    /// With `open`, the clip is a stream: more comes with `append`, its end with `finish`
    /// (an open stream may start empty).
    @discardableResult
    public mutating func add(id: Int, samples: [Int16], gain: Float = 1, at start: Int64? = nil, open: Bool = false) -> Int64? {
        guard !samples.isEmpty || open else { return nil }
        let frame = max(start ?? position, position)
        tracks.append(Track(id: id, samples: samples, gain: min(max(gain, 0), 1), startFrame: frame, open: open))
        return frame
    }

    /// More samples of stream `id`, right after the ones it has. Returns the frames the
    /// stream slipped: 0 when they came in time, the frames that went by silent when it
    /// had run dry (its samples then play from the next frame, none is skipped); nil if
    /// it is not an open stream (ended, cancelled, never started).
    @discardableResult
    public mutating func append(id: Int, samples: [Int16]) -> Int64? {
        guard let index = tracks.firstIndex(where: { $0.id == id && $0.open }) else { return nil }
        let gap = max(0, position - tracks[index].endFrame)
        if gap > 0 {
            // What has played is forgotten; the stream goes on from the next frame.
            tracks[index].dropped += tracks[index].samples.count + Int(gap)
            tracks[index].samples.removeAll()
        }
        tracks[index].samples += samples
        return gap
    }

    /// Stream `id` has all its samples: it ends after the last one.
    @discardableResult
    public mutating func finish(id: Int) -> Bool {
        guard let index = tracks.firstIndex(where: { $0.id == id && $0.open }) else { return false }
        tracks[index].open = false
        return true
    }

    /// Removes the clips with `id`; returns their cancellation events.
    public mutating func cancel(id: Int) -> [Event] {
        let gone = tracks.filter { $0.id == id }
        tracks.removeAll { $0.id == id }
        return gone.map { .cancelled(id: $0.id) }
    }

    /// Removes everything (the device went away); one cancellation per clip.
    public mutating func cancelAll() -> [Event] {
        defer { tracks.removeAll() }
        return tracks.map { .cancelled(id: $0.id) }
    }

    /// Mixes the next `frames` frames into `output` (resized to frames × channels).
    public mutating func render(frames: Int, into output: inout [Int16]) -> [Event] {
        let count = frames * channels
        if output.count != count { output = [Int16](repeating: 0, count: count) }
        var mix = [Float](repeating: 0, count: frames)
        var events: [Event] = []
        let blockStart = position
        let blockEnd = position + Int64(frames)
        for index in tracks.indices {
            let track = tracks[index]
            let from = max(track.startFrame, blockStart)
            let to = min(track.endFrame, blockEnd)
            if track.startFrame >= blockStart && track.startFrame < blockEnd {
                events.append(.started(id: track.id, frame: track.startFrame))
            }
            if from < to {
                let gain = track.gain * volume
                let first = track.startFrame + Int64(track.dropped)
                track.samples.withUnsafeBufferPointer { samples in
                    for frame in from..<to {
                        mix[Int(frame - blockStart)] += Float(samples[Int(frame - first)]) * gain
                    }
                }
            }
            if !track.open && track.endFrame <= blockEnd { events.append(.ended(id: track.id, frame: track.endFrame - 1)) }
            // A stream drops what has played, a second at a time, so it holds only what is ahead.
            let played = Int(min(max(0, blockEnd - track.startFrame - Int64(track.dropped)), Int64(track.samples.count)))
            if track.open && played >= 48_000 {
                tracks[index].samples.removeFirst(played)
                tracks[index].dropped += played
            }
        }
        tracks.removeAll { !$0.open && $0.endFrame <= blockEnd }
        output.withUnsafeMutableBufferPointer { out in
            for frame in 0..<frames {
                let value = Int16(max(-32768, min(32767, mix[frame].rounded())))
                for channel in 0..<channels { out[frame * channels + channel] = value }
            }
        }
        position = blockEnd
        return events
    }
}
