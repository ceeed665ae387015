import CFFmpeg

/// Owns an output AVFormatContext (MP4) writing through a FileOutput.
final class OutputContainer {
    let pointer: UnsafeMutablePointer<AVFormatContext>
    let output: FileOutput
    private var headerWritten = false

    init(path: String) throws(MediaError) {
        FFmpegLog.configured
        var context: UnsafeMutablePointer<AVFormatContext>?
        try ffCheck(avformat_alloc_output_context2(&context, nil, "mp4", nil), "set up an MP4 file")
        guard let context else { throw .ffmpeg(step: "set up an MP4 file", code: 0, message: "out of memory") }
        pointer = context
        do {
            output = try FileOutput(creating: path)
        } catch {
            avformat_free_context(context)
            throw error
        }
        pointer.pointee.pb = output.ioContext
        // Each packet leaves FFmpeg's buffer as soon as the muxer emits it.
        pointer.pointee.flags |= AVFMT_FLAG_FLUSH_PACKETS
        // A stream that stops (a microphone gone) holds the others back for at most a
        // second, not the default ten, so fragments keep reaching the disk.
        pointer.pointee.max_interleave_delta = 1_000_000
    }

    deinit {
        pointer.pointee.pb = nil
        avformat_free_context(pointer)
    }

    /// Whether encoders must put their headers in extradata (MP4 asks for it).
    var wantsGlobalHeader: Bool { (pointer.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER) != 0 }

    /// A new stream with the encoder's parameters and time base.
    func addStream(for encoder: CodecContext) throws(MediaError) -> UnsafeMutablePointer<AVStream> {
        guard let stream = avformat_new_stream(pointer, nil) else {
            throw .ffmpeg(step: "add a stream", code: 0, message: "out of memory")
        }
        try ffCheck(avcodec_parameters_from_context(stream.pointee.codecpar, encoder.pointer), "describe a stream")
        stream.pointee.time_base = encoder.pointer.pointee.time_base
        return stream
    }

    /// A new stream that copies `parameters` unchanged (remuxed packets).
    func addCopiedStream(from parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational)
        throws(MediaError) -> UnsafeMutablePointer<AVStream> {
        guard let stream = avformat_new_stream(pointer, nil) else {
            throw .ffmpeg(step: "add a stream", code: 0, message: "out of memory")
        }
        try ffCheck(avcodec_parameters_copy(stream.pointee.codecpar, parameters), "copy stream parameters")
        // The input's tag may not be valid in the output; let the muxer choose.
        stream.pointee.codecpar.pointee.codec_tag = 0
        stream.pointee.time_base = timeBase
        return stream
    }

    /// Writes the header with fragmented-MP4 options: an empty moov up front and one
    /// fragment per keyframe or per `fragmentSeconds`, so a file cut off by a crash
    /// still plays up to its last complete fragment.
    func writeHeader(fragmentSeconds: Double) throws(MediaError) {
        var options: OpaquePointer?
        av_dict_set(&options, "movflags", "+frag_keyframe+empty_moov+delay_moov+default_base_moof", 0)
        av_dict_set(&options, "use_editlist", "1", 0)
        av_dict_set(&options, "frag_duration", String(Int(fragmentSeconds * 1_000_000)), 0)
        defer { av_dict_free(&options) }
        try ffCheck(avformat_write_header(pointer, &options), "write the MP4 header")
        headerWritten = true
    }

    /// Writes one packet (timestamps already in the stream's time base); takes its data.
    func write(_ packet: MediaPacket) throws(MediaError) {
        try ffCheck(av_interleaved_write_frame(pointer, packet.pointer), "write a packet to \(output.path)")
    }

    func writeTrailer() throws(MediaError) {
        guard headerWritten else { return }
        headerWritten = false
        try ffCheck(av_write_trailer(pointer), "finish \(output.path)")
    }

    func stream(_ index: Int) -> UnsafeMutablePointer<AVStream>? {
        guard index >= 0, index < Int(pointer.pointee.nb_streams) else { return nil }
        return pointer.pointee.streams[index]
    }
}
