import CFFmpeg

/// Owns one SwsContext: converts camera pictures (YUYV, NV12, XRGB, decoded YUV) to
/// another pixel format of the same size. Never mirrors.
final class PixelScaler {
    private let context: OpaquePointer
    let width: Int
    let height: Int

    init(width: Int, height: Int, from source: AVPixelFormat, to target: AVPixelFormat) throws(MediaError) {
        // Bicubic is what the ffmpeg command line uses; same-size YUV conversions take
        // swscale's unscaled fast paths whatever the flag.
        guard let context = sws_getContext(Int32(width), Int32(height), source, Int32(width), Int32(height), target,
                                           Int32(SWS_BICUBIC), nil, nil, nil) else {
            throw .badInput("no conversion from \(String(cString: av_get_pix_fmt_name(source))) to "
                + "\(String(cString: av_get_pix_fmt_name(target))) at \(width)x\(height)")
        }
        self.context = context
        self.width = width
        self.height = height
    }

    deinit { sws_freeContext(context) }

    /// Converts planes given as pointers and strides into `target`'s buffers.
    func convert(planes: [UnsafeRawPointer?], strides: [Int], into target: MediaFrame) {
        var sources: [UnsafePointer<UInt8>?] = planes.map { $0?.assumingMemoryBound(to: UInt8.self) }
        var sizes: [Int32] = strides.map { Int32($0) }
        while sources.count < 4 { sources.append(nil); sizes.append(0) }
        target.withPlanes { dst, dstSizes in
            _ = sws_scale(context, sources, sizes, 0, Int32(height), dst, dstSizes)
        }
    }

    /// Converts one frame into another.
    func convert(_ source: MediaFrame, into target: MediaFrame) {
        let planes: [UnsafeRawPointer?] = (0..<4).map { UnsafeRawPointer(source.plane($0)) }
        convert(planes: planes, strides: (0..<4).map { source.lineSize($0) }, into: target)
    }
}
