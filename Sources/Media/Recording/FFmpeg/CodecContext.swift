import CFFmpeg

/// Owns one AVCodecContext, an encoder or a decoder.
final class CodecContext {
    let pointer: UnsafeMutablePointer<AVCodecContext>
    let codec: UnsafePointer<AVCodec>

    private init(codec: UnsafePointer<AVCodec>) throws(MediaError) {
        guard let context = avcodec_alloc_context3(codec) else {
            throw .ffmpeg(step: "allocate a codec context", code: 0, message: "out of memory")
        }
        self.codec = codec
        pointer = context
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&context)
    }

    static func encoder(named name: String) throws(MediaError) -> CodecContext {
        guard let codec = avcodec_find_encoder_by_name(name) else { throw .codecMissing(name) }
        return try CodecContext(codec: codec)
    }

    /// A decoder set up from a stream's parameters and opened.
    static func decoder(for parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational) throws(MediaError) -> CodecContext {
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw .codecMissing(String(cString: avcodec_get_name(parameters.pointee.codec_id)))
        }
        let context = try CodecContext(codec: codec)
        try ffCheck(avcodec_parameters_to_context(context.pointer, parameters), "set up a decoder")
        context.pointer.pointee.pkt_timebase = timeBase
        try context.open()
        return context
    }

    /// Sets a codec option (x264's preset, crf); the name is checked against the codec.
    func setOption(_ name: String, _ value: String) throws(MediaError) {
        try ffCheck(av_opt_set(pointer, name, value, AV_OPT_SEARCH_CHILDREN), "set \(name)=\(value)")
    }

    func open() throws(MediaError) {
        try ffCheck(avcodec_open2(pointer, codec, nil), "open the \(String(cString: codec.pointee.name)) codec")
    }

    var name: String { String(cString: codec.pointee.name) }

    // MARK: send and receive

    /// Hands a frame (nil to flush) to the encoder.
    func send(_ frame: MediaFrame?) throws(MediaError) {
        try ffCheck(avcodec_send_frame(pointer, frame?.pointer), "encode a frame with \(name)")
    }

    /// Hands a packet (nil to flush) to the decoder; false if it must be drained first.
    @discardableResult
    func send(_ packet: MediaPacket?) throws(MediaError) -> Bool {
        let code = avcodec_send_packet(pointer, packet?.pointer)
        if code == FFCode.again { return false }
        if code == FFCode.endOfFile { return true }
        // Only misuse is fatal; a damaged packet (a file cut off mid-write) is skipped.
        if code == rig_averror(EINVAL) { try ffCheck(code, "decode a packet with \(name)") }
        return true
    }

    /// The next encoded packet, or false when the encoder needs more input or is drained.
    func receive(into packet: MediaPacket) throws(MediaError) -> Bool {
        let code = avcodec_receive_packet(pointer, packet.pointer)
        if code == FFCode.again || code == FFCode.endOfFile { return false }
        try ffCheck(code, "take a packet from \(name)")
        return true
    }

    /// The next decoded frame, or false when the decoder needs more input or is drained.
    func receive(into frame: MediaFrame) throws(MediaError) -> Bool {
        let code = avcodec_receive_frame(pointer, frame.pointer)
        // A damaged picture (a file cut off mid-write) is skipped, not fatal.
        if code == FFCode.again || code == FFCode.endOfFile || code == FFCode.invalidData { return false }
        try ffCheck(code, "take a frame from \(name)")
        return true
    }
}
