import CFFmpeg

/// Owns one AVFrame (and, through its references, the frame's buffers).
final class MediaFrame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() throws(MediaError) {
        guard let frame = av_frame_alloc() else { throw .ffmpeg(step: "allocate a frame", code: 0, message: "out of memory") }
        pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// A frame with its own picture buffers.
    static func video(width: Int, height: Int, format: AVPixelFormat) throws(MediaError) -> MediaFrame {
        let frame = try MediaFrame()
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        frame.pointer.pointee.format = format.rawValue
        try ffCheck(av_frame_get_buffer(frame.pointer, 0), "allocate a \(width)x\(height) picture")
        return frame
    }

    /// A frame with room for `samples` samples in `format` with the layout's channels.
    static func audio(samples: Int, format: AVSampleFormat, rate: Int,
                      layout: AVChannelLayout) throws(MediaError) -> MediaFrame {
        let frame = try MediaFrame()
        frame.pointer.pointee.nb_samples = Int32(samples)
        frame.pointer.pointee.format = format.rawValue
        frame.pointer.pointee.sample_rate = Int32(rate)
        var source = layout
        try ffCheck(av_channel_layout_copy(&frame.pointer.pointee.ch_layout, &source), "copy a channel layout")
        try ffCheck(av_frame_get_buffer(frame.pointer, 0), "allocate \(samples) audio samples")
        return frame
    }

    func unref() { av_frame_unref(pointer) }

    /// Copies the buffers if an encoder still holds a reference to them.
    func makeWritable() throws(MediaError) {
        try ffCheck(av_frame_make_writable(pointer), "make a frame writable")
    }

    /// Plane `index` (AVFrame.data arrives in Swift as a tuple of 8 pointers).
    func plane(_ index: Int) -> UnsafeMutablePointer<UInt8>? {
        withUnsafeBytes(of: pointer.pointee.data) { $0.load(fromByteOffset: index * MemoryLayout<UnsafeMutablePointer<UInt8>?>.stride,
                                                            as: UnsafeMutablePointer<UInt8>?.self) }
    }

    func lineSize(_ index: Int) -> Int {
        withUnsafeBytes(of: pointer.pointee.linesize) { Int($0.load(fromByteOffset: index * 4, as: Int32.self)) }
    }

    /// data[] and linesize[] as the arrays sws_scale and swr_convert take.
    func withPlanes<R>(_ body: (UnsafePointer<UnsafeMutablePointer<UInt8>?>, UnsafePointer<Int32>) -> R) -> R {
        withUnsafeMutablePointer(to: &pointer.pointee.data) { data in
            withUnsafeMutablePointer(to: &pointer.pointee.linesize) { sizes in
                data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { planes in
                    sizes.withMemoryRebound(to: Int32.self, capacity: 8) { body(planes, $0) }
                }
            }
        }
    }

    var width: Int { Int(pointer.pointee.width) }
    var height: Int { Int(pointer.pointee.height) }
    var sampleCount: Int { Int(pointer.pointee.nb_samples) }
    var channelCount: Int { Int(pointer.pointee.ch_layout.nb_channels) }

    /// The presentation time in its stream's time base, or nil when the decoder knows none.
    var bestTimestamp: Int64? {
        let pts = pointer.pointee.best_effort_timestamp
        return pts == FFCode.noPTS ? nil : pts
    }
}
