import CFFmpeg

/// Reads an MP4 (or anything libavformat opens) back: its streams, decoded pictures
/// with their times, decoded sound and packet checksums. Each read opens the file
/// anew, so a file cut off mid-write reads up to where it ends.
public final class MediaReader {
    public let path: String
    public let streams: [MediaStreamInfo]
    /// Seconds, as the container states it.
    public let duration: Double?

    public init(path: String) throws(MediaError) {
        self.path = path
        let input = try InputContainer(path: path)
        streams = (0..<input.streamCount).compactMap { index in input.stream(index).map { Self.describe($0, index: index) } }
        duration = input.duration
    }

    public func firstStream(_ kind: RecordedStream) -> MediaStreamInfo? { streams.first { $0.kind == kind } }

    /// Calls `body` with each decoded picture in presentation order until it returns false.
    public func forEachVideoFrame(as layout: DecodedVideoFrame.Layout = .luma,
                                  _ body: (DecodedVideoFrame) -> Bool) throws(MediaError) {
        let input = try InputContainer(path: path)
        guard let index = input.firstStream(of: AVMEDIA_TYPE_VIDEO), let stream = input.stream(index) else {
            throw .noStream(path: path, kind: "video")
        }
        let timeBase = stream.pointee.time_base
        let decoder = try CodecContext.decoder(for: stream.pointee.codecpar, timeBase: timeBase)
        let packet = try MediaPacket()
        let frame = try MediaFrame()
        var converter: (PixelScaler, MediaFrame)?
        var going = true
        func drain() throws(MediaError) {
            while going, try decoder.receive(into: frame) {
                if converter == nil || converter?.0.width != frame.width || converter?.0.height != frame.height {
                    let target = layout == .luma ? AV_PIX_FMT_GRAY8 : AV_PIX_FMT_RGB24
                    let source = AVPixelFormat(rawValue: frame.pointer.pointee.format)
                    converter = (try PixelScaler(width: frame.width, height: frame.height, from: source, to: target),
                                 try MediaFrame.video(width: frame.width, height: frame.height, format: target))
                }
                guard let (scaler, picture) = converter else { return }
                scaler.convert(frame, into: picture)
                let time = frame.bestTimestamp.map { Double($0) * av_q2d(timeBase) } ?? 0
                going = body(Self.copy(picture, time: time, layout: layout))
                frame.unref()
            }
        }
        while going, input.read(into: packet) {
            // A decoder that is full takes the packet again once drained.
            while packet.streamIndex == index, going, !(try decoder.send(packet)) { try drain() }
            packet.unref()
            try drain()
        }
        if going {
            try decoder.send(nil as MediaPacket?)
            try drain()
        }
    }

    public func decodeVideo(as layout: DecodedVideoFrame.Layout = .luma) throws(MediaError) -> [DecodedVideoFrame] {
        var frames: [DecodedVideoFrame] = []
        try forEachVideoFrame(as: layout) { frames.append($0); return true }
        return frames
    }

    /// The first audio stream decoded to interleaved float at its own rate.
    public func decodeAudio() throws(MediaError) -> DecodedAudio {
        let input = try InputContainer(path: path)
        guard let index = input.firstStream(of: AVMEDIA_TYPE_AUDIO), let stream = input.stream(index) else {
            throw .noStream(path: path, kind: "audio")
        }
        let timeBase = stream.pointee.time_base
        let decoder = try CodecContext.decoder(for: stream.pointee.codecpar, timeBase: timeBase)
        let packet = try MediaPacket()
        let frame = try MediaFrame()
        var audio = DecodedAudio(sampleRate: Int(decoder.pointer.pointee.sample_rate),
                                 channels: Int(decoder.pointer.pointee.ch_layout.nb_channels), startTime: 0, samples: [])
        var first = true
        func drain() throws(MediaError) {
            while try decoder.receive(into: frame) {
                // pts, not the best-effort guess: only pts moves past the encoder's
                // priming samples the decoder drops (the edit list's skip).
                let pts = frame.pointer.pointee.pts != FFCode.noPTS ? frame.pointer.pointee.pts : frame.bestTimestamp
                if first, let pts { audio.startTime = Double(pts) * av_q2d(timeBase) }
                first = false
                Self.appendSamples(of: frame, to: &audio.samples)
                frame.unref()
            }
        }
        while input.read(into: packet) {
            while packet.streamIndex == index, !(try decoder.send(packet)) { try drain() }
            packet.unref()
            try drain()
        }
        try decoder.send(nil as MediaPacket?)
        try drain()
        return audio
    }

    /// Every packet of the first stream of `kind`, in file order.
    public func packets(of kind: RecordedStream) throws(MediaError) -> [PacketSummary] {
        let input = try InputContainer(path: path)
        let type = kind == .video ? AVMEDIA_TYPE_VIDEO : AVMEDIA_TYPE_AUDIO
        guard let index = input.firstStream(of: type), let stream = input.stream(index) else {
            throw .noStream(path: path, kind: kind.rawValue)
        }
        let timeBase = av_q2d(stream.pointee.time_base)
        let packet = try MediaPacket()
        var result: [PacketSummary] = []
        while input.read(into: packet) {
            if packet.streamIndex == index {
                let pts = packet.pointer.pointee.pts
                result.append(PacketSummary(time: pts == FFCode.noPTS ? 0 : Double(pts) * timeBase,
                                            size: Int(packet.pointer.pointee.size), checksum: Self.fnv1a(packet.bytes)))
            }
            packet.unref()
        }
        return result
    }

    private static func describe(_ stream: UnsafeMutablePointer<AVStream>, index: Int) -> MediaStreamInfo {
        let parameters = stream.pointee.codecpar.pointee
        let timeBase = av_q2d(stream.pointee.time_base)
        let kind: RecordedStream? = parameters.codec_type == AVMEDIA_TYPE_VIDEO ? .video
            : parameters.codec_type == AVMEDIA_TYPE_AUDIO ? .audio : nil
        let duration = stream.pointee.duration
        let start = stream.pointee.start_time
        return MediaStreamInfo(
            index: index, kind: kind, codecName: String(cString: avcodec_get_name(parameters.codec_id)),
            duration: duration == FFCode.noPTS || duration <= 0 ? nil : Double(duration) * timeBase,
            startTime: start == FFCode.noPTS ? nil : Double(start) * timeBase,
            width: Int(parameters.width), height: Int(parameters.height),
            sampleRate: Int(parameters.sample_rate), channels: Int(parameters.ch_layout.nb_channels))
    }

    private static func copy(_ picture: MediaFrame, time: Double, layout: DecodedVideoFrame.Layout) -> DecodedVideoFrame {
        let rowBytes = picture.width * (layout == .luma ? 1 : 3)
        var pixels = [UInt8](repeating: 0, count: rowBytes * picture.height)
        if let plane = picture.plane(0) {
            let stride = picture.lineSize(0)
            pixels.withUnsafeMutableBytes { target in
                guard let base = target.baseAddress else { return }
                for row in 0..<picture.height {
                    (base + row * rowBytes).copyMemory(from: plane + row * stride, byteCount: rowBytes)
                }
            }
        }
        return DecodedVideoFrame(time: time, width: picture.width, height: picture.height, layout: layout, pixels: pixels)
    }

    /// Appends a decoded frame's samples as interleaved float (AAC decodes to fltp).
    static func appendSamples(of frame: MediaFrame, to samples: inout [Float]) {
        let count = frame.sampleCount
        let channels = frame.channelCount
        let format = AVSampleFormat(rawValue: frame.pointer.pointee.format)
        samples.reserveCapacity(samples.count + count * channels)
        for i in 0..<count {
            for channel in 0..<channels {
                samples.append(sample(frame, format: format, channel: channel, index: i, channels: channels))
            }
        }
    }

    private static func sample(_ frame: MediaFrame, format: AVSampleFormat, channel: Int, index: Int, channels: Int) -> Float {
        switch format {
        case AV_SAMPLE_FMT_FLTP:
            return frame.plane(channel).map { UnsafeRawPointer($0).load(fromByteOffset: index * 4, as: Float.self) } ?? 0
        case AV_SAMPLE_FMT_FLT:
            return frame.plane(0).map { UnsafeRawPointer($0).load(fromByteOffset: (index * channels + channel) * 4, as: Float.self) } ?? 0
        case AV_SAMPLE_FMT_S16P:
            return frame.plane(channel).map { Float(UnsafeRawPointer($0).load(fromByteOffset: index * 2, as: Int16.self)) / 32768 } ?? 0
        case AV_SAMPLE_FMT_S16:
            return frame.plane(0).map {
                Float(UnsafeRawPointer($0).load(fromByteOffset: (index * channels + channel) * 2, as: Int16.self)) / 32768
            } ?? 0
        default: return 0
        }
    }

    static func fnv1a(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
