import CYUV

/// Turns camera frames into x8r8g8b8 pixels inside a destination region: converted by
/// libyuv, optionally mirrored left-right (the talent's preview), aspect-fit and
/// letterboxed in black. One converter per thread: it keeps scratch memory between
/// frames so a steady preview allocates nothing.
public final class CameraFrameConverter {
    /// Opaque black, the colour of the letterbox bars.
    public static let letterboxColor: UInt32 = 0xFF00_0000

    /// Rows converted at a time on the mirrored path: the strip stays in the L2 cache
    /// between libyuv's conversion and its mirror, so mirroring costs almost nothing.
    static let stripRows = 16

    private let stripScratch = ScratchMemory()
    private let frameScratch = ScratchMemory()

    public init() {}

    /// Draws `image` into `destination`, aspect-fit, letterboxed, mirrored if asked.
    /// Returns where the picture landed inside the destination.
    @discardableResult
    public func draw(_ image: CameraImage, into destination: XRGBRegion, mirrored: Bool) throws(CameraFrameError) -> PixelRect {
        let fit = PixelRect.fit(sourceWidth: image.width, sourceHeight: image.height,
                                    targetWidth: destination.width, targetHeight: destination.height)
        for bar in fit.bars(targetWidth: destination.width, targetHeight: destination.height) {
            try check(ARGBRect(destination.bytes, Int32(destination.bytesPerRow), Int32(bar.x), Int32(bar.y),
                               Int32(bar.width), Int32(bar.height), Self.letterboxColor), "ARGBRect")
        }
        let picture = destination.subregion(fit)
        if fit.width == image.width && fit.height == image.height {
            try convert(image, into: picture, mirrored: mirrored)
        } else {
            try scale(image, into: picture, mirrored: mirrored)
        }
        return fit
    }

    /// Same size: convert straight into the destination.
    private func convert(_ image: CameraImage, into picture: XRGBRegion, mirrored: Bool) throws(CameraFrameError) {
        if mirrored {
            try convertMirrored(image, into: picture.bytes, bytesPerRow: picture.bytesPerRow)
        } else {
            try convertRows(image, from: 0, count: image.height, into: picture.bytes, bytesPerRow: picture.bytesPerRow)
        }
    }

    /// Different size: convert (and mirror) at the source size into scratch, then let
    /// libyuv scale into the destination. Mirroring before scaling costs the same as
    /// after for the usual upscaled preview and needs no second scratch frame.
    private func scale(_ image: CameraImage, into picture: XRGBRegion, mirrored: Bool) throws(CameraFrameError) {
        let source: UnsafePointer<UInt8>
        let sourceBytesPerRow: Int
        if image.format == .xrgb && !mirrored {
            source = image.planes(fromRow: 0).first
            sourceBytesPerRow = image.bytesPerLine
        } else {
            sourceBytesPerRow = image.width * 4
            let full = frameScratch.pointer(minimumBytes: sourceBytesPerRow * image.height)
            if mirrored {
                try convertMirrored(image, into: full, bytesPerRow: sourceBytesPerRow)
            } else {
                try convertRows(image, from: 0, count: image.height, into: full, bytesPerRow: sourceBytesPerRow)
            }
            source = UnsafePointer(full)
        }
        // Box filtering keeps a small thumbnail from aliasing; bilinear is enough otherwise.
        let shrink = image.width >= picture.width * 2 || image.height >= picture.height * 2
        try check(ARGBScale(source, Int32(sourceBytesPerRow), Int32(image.width), Int32(image.height),
                            picture.bytes, Int32(picture.bytesPerRow), Int32(picture.width), Int32(picture.height),
                            shrink ? kFilterBox : kFilterBilinear), "ARGBScale")
    }

    /// Converts and mirrors left-right at the source size. libyuv has no mirroring
    /// variant of its YUV converters, so rows go through a strip of scratch that stays
    /// in the L2 cache between the conversion and ARGBMirror.
    private func convertMirrored(_ image: CameraImage, into destination: UnsafeMutablePointer<UInt8>,
                                 bytesPerRow: Int) throws(CameraFrameError) {
        if image.format == .xrgb {
            try check(ARGBMirror(image.planes(fromRow: 0).first, Int32(image.bytesPerLine), destination,
                                 Int32(bytesPerRow), Int32(image.width), Int32(image.height)), "ARGBMirror")
            return
        }
        let stripBytesPerRow = image.width * 4
        let strip = stripScratch.pointer(minimumBytes: stripBytesPerRow * Self.stripRows)
        var row = 0
        while row < image.height {
            let count = min(Self.stripRows, image.height - row)
            try convertRows(image, from: row, count: count, into: strip, bytesPerRow: stripBytesPerRow)
            try check(ARGBMirror(strip, Int32(stripBytesPerRow), destination + row * bytesPerRow,
                                 Int32(bytesPerRow), Int32(image.width), Int32(count)), "ARGBMirror")
            row += count
        }
    }

    /// libyuv's converter for the format, for `count` rows starting at `row`.
    private func convertRows(_ image: CameraImage, from row: Int, count: Int,
                             into destination: UnsafeMutablePointer<UInt8>, bytesPerRow: Int) throws(CameraFrameError) {
        let planes = image.planes(fromRow: row)
        let stride = Int32(image.bytesPerLine)
        let out = Int32(bytesPerRow)
        let width = Int32(image.width)
        let rows = Int32(count)
        switch image.format {
        case .yuyv:
            try check(YUY2ToARGB(planes.first, stride, destination, out, width, rows), "YUY2ToARGB")
        case .uyvy:
            try check(UYVYToARGB(planes.first, stride, destination, out, width, rows), "UYVYToARGB")
        case .nv12:
            try check(NV12ToARGB(planes.first, stride, planes.second, stride, destination, out, width, rows), "NV12ToARGB")
        case .i420:
            let chroma = Int32(image.bytesPerLine / 2)
            try check(I420ToARGB(planes.first, stride, planes.second, chroma, planes.third, chroma,
                                 destination, out, width, rows), "I420ToARGB")
        case .rgb24:
            // V4L2's RGB24 is R, G, B in memory: libyuv calls that RAW.
            try check(RAWToARGB(planes.first, stride, destination, out, width, rows), "RAWToARGB")
        case .xrgb:
            try check(ARGBCopy(planes.first, stride, destination, out, width, rows), "ARGBCopy")
        }
    }

    private func check(_ result: Int32, _ step: String) throws(CameraFrameError) {
        if result != 0 { throw .conversionFailed(step: step) }
    }
}

/// Memory reused from frame to frame, grown (never shrunk) to the largest request.
private final class ScratchMemory {
    private var memory = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 64)
    private var capacity = 64

    deinit { memory.deallocate() }

    func pointer(minimumBytes: Int) -> UnsafeMutablePointer<UInt8> {
        if minimumBytes > capacity {
            memory.deallocate()
            // 64-byte aligned for libyuv's AVX2 row functions.
            memory = UnsafeMutableRawPointer.allocate(byteCount: minimumBytes, alignment: 64)
            capacity = minimumBytes
        }
        return memory.assumingMemoryBound(to: UInt8.self)
    }
}
