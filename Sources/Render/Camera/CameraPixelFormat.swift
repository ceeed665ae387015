/// The camera pixel layouts the converter reads. These are the ones a V4L2 device or
/// libv4l2 hands over: webcams send YUYV or MJPEG, and libv4l2 decodes MJPEG into
/// I420 (or RGB24) for us; capture devices and SoC ISPs often send NV12.
/// `.xrgb` is a frame already converted (x8r8g8b8, little-endian), e.g. on the capture
/// thread, so the loop only mirrors and scales it.
public enum CameraPixelFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    case yuyv = "YUYV"
    case uyvy = "UYVY"
    case nv12 = "NV12"
    case i420 = "YU12"
    case rgb24 = "RGB3"
    case xrgb = "XR24"

    public var description: String { rawValue }

    /// The V4L2 fourcc (`v4l2_fourcc(a, b, c, d)`); the names above are those codes.
    public var fourcc: UInt32 {
        let bytes = Array(rawValue.utf8)
        return UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
    }

    public init?(fourcc: UInt32) {
        guard let match = Self.allCases.first(where: { $0.fourcc == fourcc }) else { return nil }
        self = match
    }

    /// Bytes of one row of the first plane, without padding.
    public func minimumBytesPerLine(width: Int) -> Int {
        switch self {
        case .yuyv, .uyvy: ((width + 1) / 2) * 4
        case .nv12, .i420: width
        case .rgb24: width * 3
        case .xrgb: width * 4
        }
    }

    /// Total bytes of a frame laid out as V4L2 single-planar buffers: the planes follow
    /// each other, the chroma planes of I420 with half the luma stride.
    public func frameByteCount(bytesPerLine: Int, height: Int) -> Int {
        let chromaRows = (height + 1) / 2
        switch self {
        case .yuyv, .uyvy, .rgb24, .xrgb: return bytesPerLine * height
        case .nv12: return bytesPerLine * height + bytesPerLine * chromaRows
        case .i420: return bytesPerLine * height + 2 * (bytesPerLine / 2) * chromaRows
        }
    }

    /// Formats with chroma shared by two rows must be converted in pairs of rows.
    var rowAlignment: Int {
        switch self {
        case .nv12, .i420: 2
        default: 1
        }
    }
}

/// A four-character code as text ("YUYV", "MJPG"), for logs and `rig devices`.
/// Codes padded with spaces ("Y8  ") lose the padding; unprintable bytes read "?".
public func fourccText(_ code: UInt32) -> String {
    var bytes = (0..<4).map { UInt8(truncatingIfNeeded: code >> ($0 * 8)) }
    while bytes.last == 0x20 { bytes.removeLast() }
    return String(bytes.map { (32...126).contains($0) ? Character(UnicodeScalar($0)) : "?" })
}
