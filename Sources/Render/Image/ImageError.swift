/// What can go wrong creating, reading or writing images.
public enum ImageError: Error, Equatable, CustomStringConvertible {
    case invalidSize(width: Int, height: Int)
    case outOfMemory(width: Int, height: Int)
    case pngRead(path: String, reason: String)
    case pngWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case let .invalidSize(width, height):
            return "image size \(width)x\(height) is not usable (each side must be 1...32767 px)"
        case let .outOfMemory(width, height):
            return "not enough memory for a \(width)x\(height) image"
        case let .pngRead(path, reason):
            return "cannot read PNG \(path): \(reason)"
        case let .pngWrite(path, reason):
            return "cannot write PNG \(path): \(reason)"
        }
    }
}
