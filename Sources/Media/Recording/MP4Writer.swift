import CFFmpeg

/// Writes one fragmented MP4 (H.264 + optional AAC) synchronously, on whichever thread
/// owns it. Timestamps are CLOCK_MONOTONIC seconds made relative to `origin`: video
/// at microsecond precision (variable frame rate), audio by sample count from the first
/// captured sample, with capture gaps filled by silence so sound stays in sync.
final class MP4Writer {
    let path: String
    private let settings: RecorderSettings
    let origin: Double
    private let container: OutputContainer
    private let video: VideoEncoder
    private let audio: AudioEncoder?
    private var videoStream: UnsafeMutablePointer<AVStream>
    private var audioStream: UnsafeMutablePointer<AVStream>?
    private var lastVideoPTS: Int64 = -1
    private var syncedBytes: UInt64 = 0
    private var audioTime: AudioTimeline?
    private(set) var stats = MP4WriterStats()

    init(path: String, video track: VideoTrackFormat, audio audioTrack: AudioTrackFormat?,
         settings: RecorderSettings, origin: Double) throws(MediaError) {
        self.path = path
        self.settings = settings
        self.origin = origin
        container = try OutputContainer(path: path)
        let global = container.wantsGlobalHeader
        video = try VideoEncoder(track: track, settings: settings, globalHeader: global)
        audio = try audioTrack.map { (format) throws(MediaError) in
            try AudioEncoder(input: format, settings: settings, globalHeader: global)
        }
        videoStream = try container.addStream(for: video.context)
        audioStream = try audio.map { (encoder) throws(MediaError) in try container.addStream(for: encoder.context) }
        try container.writeHeader(fragmentSeconds: settings.fragmentSeconds)
    }

    var bytesWritten: UInt64 { container.output.bytesWritten }

    /// Encoded bytes the muxer holds for the fragment it has not written yet: the
    /// disk must have room for them too (a fragment of a busy picture is megabytes).
    var bytesPending: UInt64 { encodedBytes > bytesWritten ? encodedBytes - bytesWritten : 0 }
    private var encodedBytes: UInt64 = 0

    /// Encodes one frame; frames before the origin, out of order or of another size
    /// are counted and skipped.
    func write(_ frame: RecorderVideoFrame) throws(MediaError) {
        guard frame.format == video.track.format, frame.width == video.track.width, frame.height == video.track.height,
              frame.bytesPerLine >= frame.format.minimumBytesPerLine(width: frame.width),
              frame.bytes.count >= frame.format.byteCount(bytesPerLine: frame.bytesPerLine, height: frame.height) else {
            stats.rejectedFrames += 1
            return
        }
        let pts = Int64(((frame.timestamp - origin) * 1_000_000).rounded())
        guard pts >= 0, pts > lastVideoPTS else {
            stats.rejectedFrames += 1
            return
        }
        lastVideoPTS = pts
        try video.encode(frame, pts: pts) { (packet) throws(MediaError) in try self.emit(packet, from: self.video.context, to: self.videoStream) }
        stats.videoFrames += 1
        if stats.firstVideoTimestamp == nil { stats.firstVideoTimestamp = frame.timestamp }
        stats.lastVideoTimestamp = frame.timestamp
    }

    /// Encodes one chunk of captured sound.
    func write(_ chunk: RecorderAudioChunk) throws(MediaError) {
        guard let audio, let stream = audioStream else { return }
        let channels = audio.input.channels
        let rate = Double(audio.input.sampleRate)
        let count = chunk.samples.count / channels
        guard count > 0 else { return }
        var skip = 0
        if var timeline = audioTime {
            let drift = chunk.timestamp - timeline.expectedTime(rate: rate)
            if drift > settings.audioGapTolerance {
                let silence = Int((drift * rate).rounded())
                try audio.encodeSilence(silence) { (p) throws(MediaError) in try self.emit(p, from: audio.context, to: stream) }
                timeline.consumed += Int64(silence)
                stats.audioGapsFilled += 1
            } else if drift < -settings.audioGapTolerance {
                skip = min(count, Int((-drift * rate).rounded()))
                stats.audioSamplesTrimmed += Int64(skip)
            }
            audioTime = timeline
        } else {
            // Samples captured before the origin are not part of the recording.
            let end = chunk.timestamp + Double(count) / rate
            guard end > origin else { return }
            skip = max(0, Int(((origin - chunk.timestamp) * rate).rounded(.up)))
            let start = chunk.timestamp + Double(skip) / rate
            audio.start(atPTS: Int64(((start - origin) * Double(audio.outputRate)).rounded()))
            audioTime = AudioTimeline(startTime: start)
            stats.firstAudioTimestamp = start
        }
        guard skip < count else { return }
        try chunk.samples.withUnsafeBufferPointer { (all) throws(MediaError) in
            let part = UnsafeBufferPointer(rebasing: all[(skip * channels)..<(count * channels)])
            try audio.encode(part) { (p) throws(MediaError) in try self.emit(p, from: audio.context, to: stream) }
        }
        audioTime?.consumed += Int64(count - skip)
        stats.audioSamples += Int64(count - skip)
        if let timeline = audioTime { stats.lastAudioTimestamp = timeline.expectedTime(rate: rate) }
    }

    /// Flushes the encoders, writes the last fragment and the trailer, syncs the file.
    func finish() throws(MediaError) {
        try video.flush { (packet) throws(MediaError) in try self.emit(packet, from: self.video.context, to: self.videoStream) }
        if let audio, let stream = audioStream, audioTime != nil {
            try audio.flush { (packet) throws(MediaError) in try self.emit(packet, from: audio.context, to: stream) }
        }
        try container.writeTrailer()
        try container.output.sync()
    }

    private func emit(_ packet: MediaPacket, from encoder: CodecContext,
                      to stream: UnsafeMutablePointer<AVStream>) throws(MediaError) {
        av_packet_rescale_ts(packet.pointer, encoder.pointer.pointee.time_base, stream.pointee.time_base)
        packet.pointer.pointee.stream_index = stream.pointee.index
        encodedBytes += UInt64(packet.pointer.pointee.size)
        try container.write(packet)
        // The muxer holds a fragment in memory and writes it whole when it cuts it:
        // new bytes on the file mean a fragment landed, so make it durable now.
        if container.output.bytesWritten != syncedBytes {
            syncedBytes = container.output.bytesWritten
            try container.output.sync()
        }
    }
}

/// Counts and times of what a writer put in its file.
struct MP4WriterStats: Equatable {
    var videoFrames = 0
    var rejectedFrames = 0
    var audioSamples: Int64 = 0
    var audioGapsFilled = 0
    var audioSamplesTrimmed: Int64 = 0
    var firstVideoTimestamp: Double?
    var lastVideoTimestamp: Double?
    var firstAudioTimestamp: Double?
    var lastAudioTimestamp: Double?
}

/// Where the next captured sample belongs: the first sample's time plus samples taken.
private struct AudioTimeline {
    let startTime: Double
    var consumed: Int64 = 0

    func expectedTime(rate: Double) -> Double { startTime + Double(consumed) / rate }
}
