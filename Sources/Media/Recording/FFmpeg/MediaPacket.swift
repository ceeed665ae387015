import CFFmpeg

/// Owns one AVPacket.
final class MediaPacket {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() throws(MediaError) {
        guard let packet = av_packet_alloc() else { throw .ffmpeg(step: "allocate a packet", code: 0, message: "out of memory") }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    func unref() { av_packet_unref(pointer) }

    var streamIndex: Int { Int(pointer.pointee.stream_index) }

    /// The payload, for checksums of copied streams.
    var bytes: UnsafeRawBufferPointer {
        guard let data = pointer.pointee.data else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: data, count: Int(pointer.pointee.size))
    }
}
