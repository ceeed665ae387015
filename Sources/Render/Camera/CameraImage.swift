/// A borrowed view of one camera frame in its device layout: V4L2 single-planar
/// buffers (planes back to back, `bytesPerLine` from the negotiated format).
/// The constructor checks the sizes, so the converter never reads past the buffer.
public struct CameraImage {
    public let format: CameraPixelFormat
    public let width: Int
    public let height: Int
    public let bytesPerLine: Int
    public let base: UnsafeRawPointer
    public let byteCount: Int

    public static let maximumSide = 32767

    public init(format: CameraPixelFormat, width: Int, height: Int, bytesPerLine: Int,
                base: UnsafeRawPointer, byteCount: Int) throws(CameraFrameError) {
        guard (1...Self.maximumSide).contains(width), (1...Self.maximumSide).contains(height) else {
            throw .badSize(width: width, height: height)
        }
        let minimumLine = format.minimumBytesPerLine(width: width)
        guard bytesPerLine >= minimumLine else {
            throw .strideTooSmall(format: format, bytesPerLine: bytesPerLine, needed: minimumLine)
        }
        let needed = format.frameByteCount(bytesPerLine: bytesPerLine, height: height)
        guard byteCount >= needed else {
            throw .bufferTooSmall(format: format, byteCount: byteCount, needed: needed)
        }
        self.format = format
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine
        self.base = base
        self.byteCount = byteCount
    }

    /// Plane pointers for rows starting at `row` (even for the subsampled formats).
    func planes(fromRow row: Int) -> (first: UnsafePointer<UInt8>, second: UnsafePointer<UInt8>?,
                                       third: UnsafePointer<UInt8>?) {
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        let lumaSize = bytesPerLine * height
        let chromaRows = (height + 1) / 2
        switch format {
        case .yuyv, .uyvy, .rgb24, .xrgb:
            return (bytes + row * bytesPerLine, nil, nil)
        case .nv12:
            return (bytes + row * bytesPerLine, bytes + lumaSize + (row / 2) * bytesPerLine, nil)
        case .i420:
            let chromaStride = bytesPerLine / 2
            let u = bytes + lumaSize
            let v = u + chromaStride * chromaRows
            return (bytes + row * bytesPerLine, u + (row / 2) * chromaStride, v + (row / 2) * chromaStride)
        }
    }
}

/// Where converted pixels go: x8r8g8b8 rows (libyuv's "ARGB", pixman's x8r8g8b8), e.g.
/// a rectangle inside a DRM dumb buffer or a canvas, given as base pointer and stride.
public struct XRGBRegion {
    public let base: UnsafeMutableRawPointer
    public let bytesPerRow: Int
    public let width: Int
    public let height: Int

    public init(base: UnsafeMutableRawPointer, bytesPerRow: Int, width: Int, height: Int) throws(CameraFrameError) {
        guard width >= 1, height >= 1, width <= CameraImage.maximumSide, height <= CameraImage.maximumSide,
              bytesPerRow >= width * 4 else {
            throw .badDestination(width: width, height: height, bytesPerRow: bytesPerRow)
        }
        self.base = base
        self.bytesPerRow = bytesPerRow
        self.width = width
        self.height = height
    }

    /// The part of this region covered by `rect` (already clipped to it by the caller).
    func subregion(_ rect: PixelRect) -> XRGBRegion {
        // Unchecked init: a fit rectangle always lies inside its region.
        XRGBRegion(unchecked: base + rect.y * bytesPerRow + rect.x * 4, bytesPerRow: bytesPerRow,
                   width: rect.width, height: rect.height)
    }

    private init(unchecked base: UnsafeMutableRawPointer, bytesPerRow: Int, width: Int, height: Int) {
        self.base = base
        self.bytesPerRow = bytesPerRow
        self.width = width
        self.height = height
    }

    var bytes: UnsafeMutablePointer<UInt8> { base.assumingMemoryBound(to: UInt8.self) }
}
