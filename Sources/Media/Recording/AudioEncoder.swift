import CFFmpeg

/// AAC with FFmpeg's native encoder: converts interleaved s16 capture samples to
/// planar float at the stream's rate and cuts them into the encoder's 1024-sample
/// frames, timestamped by sample count from the first sample's place on the timeline.
final class AudioEncoder {
    let context: CodecContext
    let input: AudioTrackFormat
    let outputRate: Int
    private let converter: SampleConverter
    private let frameSize: Int
    private let frame: MediaFrame
    private let packet: MediaPacket
    /// Converted samples not yet encoded, one array per channel.
    private var pending: [[Float]]
    private var nextPTS: Int64 = 0
    /// Samples handed to the encoder, at the output rate.
    private(set) var encodedSamples: Int64 = 0

    /// `planarFloat` is for exports handing over decoded samples; capture gives s16.
    init(input: AudioTrackFormat, settings: RecorderSettings, globalHeader: Bool,
         planarFloat: Bool = false) throws(MediaError) {
        guard input.sampleRate > 0, (1...8).contains(input.channels) else {
            throw .badInput("audio of \(input.channels) channels at \(input.sampleRate) Hz")
        }
        self.input = input
        outputRate = settings.audioSampleRate
        context = try .encoder(named: "aac")
        let c = context.pointer
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(input.channels))
        try ffCheck(av_channel_layout_copy(&c.pointee.ch_layout, &layout), "set the channel layout")
        c.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        c.pointee.sample_rate = Int32(outputRate)
        c.pointee.time_base = AVRational(num: 1, den: Int32(outputRate))
        c.pointee.bit_rate = Int64(settings.audioBitrate)
        if globalHeader { c.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
        try context.open()
        frameSize = max(1, Int(c.pointee.frame_size))
        converter = try SampleConverter(from: planarFloat ? AV_SAMPLE_FMT_FLTP : AV_SAMPLE_FMT_S16, rate: input.sampleRate, layout: layout,
                                        to: AV_SAMPLE_FMT_FLTP, rate: outputRate, layout: layout)
        frame = try .audio(samples: frameSize, format: AV_SAMPLE_FMT_FLTP, rate: outputRate, layout: layout)
        packet = try MediaPacket()
        pending = Array(repeating: [], count: input.channels)
    }

    /// Where the first sample lies, in output samples from the timeline's origin.
    func start(atPTS pts: Int64) { nextPTS = pts }

    /// Encodes `samples` (interleaved, `input.channels` per frame).
    func encode(_ samples: UnsafeBufferPointer<Int16>, emit: (MediaPacket) throws(MediaError) -> Void) throws(MediaError) {
        let count = samples.count / input.channels
        guard count > 0, let base = samples.baseAddress else { return }
        try convert(input: [UnsafeRawPointer(base)], count: count)
        try encodeWholeFrames(emit)
    }

    /// Encodes `count` samples given as one float plane per channel.
    func encode(planes: [UnsafePointer<Float>], count: Int,
                emit: (MediaPacket) throws(MediaError) -> Void) throws(MediaError) {
        guard count > 0, planes.count == input.channels else { return }
        try convert(input: planes.map { UnsafeRawPointer($0) }, count: count)
        try encodeWholeFrames(emit)
    }

    /// Encodes `count` samples of silence (a gap in the capture).
    func encodeSilence(_ count: Int, emit: (MediaPacket) throws(MediaError) -> Void) throws(MediaError) {
        guard count > 0 else { return }
        let zeros = [Int16](repeating: 0, count: count * input.channels)
        try zeros.withUnsafeBufferPointer { (buffer) throws(MediaError) in try encode(buffer, emit: emit) }
    }

    /// Drains the resampler, encodes the last partial frame and what the encoder holds.
    func flush(emit: (MediaPacket) throws(MediaError) -> Void) throws(MediaError) {
        try convert(input: [nil], count: 0)
        try encodeWholeFrames(emit)
        if let remaining = pending.first?.count, remaining > 0 {
            let padding = frameSize - remaining
            for channel in pending.indices { pending[channel].append(contentsOf: repeatElement(0, count: padding)) }
            try encodeFrame(emit)
        }
        try context.send(nil as MediaFrame?)
        try drain(emit)
    }

    private func convert(input planes: [UnsafeRawPointer?], count: Int) throws(MediaError) {
        let capacity = converter.outputCapacity(forInput: count)
        let channels = input.channels
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: capacity * channels)
        defer { scratch.deallocate() }
        var outputs: [UnsafeMutablePointer<UInt8>?] = (0..<channels).map {
            UnsafeMutableRawPointer(scratch + $0 * capacity).assumingMemoryBound(to: UInt8.self)
        }
        let written = try outputs.withUnsafeMutableBufferPointer { (pointers) throws(MediaError) -> Int in
            guard let base = pointers.baseAddress else { return 0 }
            return try converter.convert(input: planes, count: count, output: base, capacity: capacity)
        }
        for channel in 0..<channels {
            pending[channel].append(contentsOf: UnsafeBufferPointer(start: scratch + channel * capacity, count: written))
        }
        _ = outputs
    }

    private func encodeWholeFrames(_ emit: (MediaPacket) throws(MediaError) -> Void) throws(MediaError) {
        while let available = pending.first?.count, available >= frameSize {
            try encodeFrame(emit)
        }
    }

    private func encodeFrame(_ emit: (MediaPacket) throws(MediaError) -> Void) throws(MediaError) {
        try frame.makeWritable()
        for channel in pending.indices {
            guard let plane = frame.plane(channel) else { continue }
            let target = UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Float.self)
            pending[channel].withUnsafeBufferPointer { samples in
                if let source = samples.baseAddress { target.update(from: source, count: frameSize) }
            }
            pending[channel].removeFirst(frameSize)
        }
        frame.pointer.pointee.pts = nextPTS
        nextPTS += Int64(frameSize)
        encodedSamples += Int64(frameSize)
        try context.send(frame)
        try drain(emit)
    }

    private func drain(_ emit: (MediaPacket) throws(MediaError) -> Void) throws(MediaError) {
        while try context.receive(into: packet) {
            try emit(packet)
            packet.unref()
        }
    }
}
