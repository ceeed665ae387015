/// Why a camera frame could not be converted. Frames come from devices and files we do
/// not control, so a bad one is reported, never trusted.
public enum CameraFrameError: Error, Equatable, CustomStringConvertible {
    case badSize(width: Int, height: Int)
    case strideTooSmall(format: CameraPixelFormat, bytesPerLine: Int, needed: Int)
    case bufferTooSmall(format: CameraPixelFormat, byteCount: Int, needed: Int)
    case badDestination(width: Int, height: Int, bytesPerRow: Int)
    case conversionFailed(step: String)

    public var description: String {
        switch self {
        case let .badSize(width, height):
            "camera frame: size \(width)x\(height) is not usable (1...32767 on each side)"
        case let .strideTooSmall(format, bytesPerLine, needed):
            "camera frame: \(format) row of \(bytesPerLine) bytes is shorter than the \(needed) bytes its width needs"
        case let .bufferTooSmall(format, byteCount, needed):
            "camera frame: \(format) buffer holds \(byteCount) bytes, the frame needs \(needed)"
        case let .badDestination(width, height, bytesPerRow):
            "camera destination: \(width)x\(height) with \(bytesPerRow) bytes per row is not a valid XRGB region"
        case let .conversionFailed(step):
            "camera frame: libyuv refused \(step)"
        }
    }
}
