import CFFmpeg

/// Owns an input AVFormatContext: a media file opened for reading.
final class InputContainer {
    let pointer: UnsafeMutablePointer<AVFormatContext>
    let path: String
    /// Set when reading stopped on damage rather than at the end (a file cut off mid-write).
    private(set) var readError: MediaError?

    init(path: String) throws(MediaError) {
        FFmpegLog.configured
        var context: UnsafeMutablePointer<AVFormatContext>?
        let code = avformat_open_input(&context, path, nil, nil)
        guard code >= 0, let context else {
            throw .ffmpeg(step: "open \(path)", code: code, message: MediaError.text(code))
        }
        pointer = context
        self.path = path
        try ffCheck(avformat_find_stream_info(pointer, nil), "read the streams of \(path)")
    }

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = pointer
        avformat_close_input(&context)
    }

    var streamCount: Int { Int(pointer.pointee.nb_streams) }

    func stream(_ index: Int) -> UnsafeMutablePointer<AVStream>? {
        guard index >= 0, index < streamCount else { return nil }
        return pointer.pointee.streams[index]
    }

    /// The first stream of `type`.
    func firstStream(of type: AVMediaType) -> Int? {
        (0..<streamCount).first { stream($0)?.pointee.codecpar.pointee.codec_type == type }
    }

    /// The next packet; false at the end of the file or where it is cut off.
    func read(into packet: MediaPacket) -> Bool {
        let code = av_read_frame(pointer, packet.pointer)
        if code >= 0 { return true }
        if code != FFCode.endOfFile { readError = .ffmpeg(step: "read \(path)", code: code, message: MediaError.text(code)) }
        return false
    }

    /// Seconds from the container, when it knows.
    var duration: Double? {
        let value = pointer.pointee.duration
        return value == FFCode.noPTS || value <= 0 ? nil : Double(value) / Double(AV_TIME_BASE)
    }
}
