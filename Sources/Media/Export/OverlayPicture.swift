/// A picture drawn over the video (the cue's badge in the Visual S/Z export):
/// straight-alpha RGBA rows, placed with its top-left corner at (x, y). Media draws no
/// text: the caller renders it, with the same badge the participant saw (Stage's
/// `CueBadge`).
public struct OverlayPicture: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// width * height * 4 bytes: R, G, B, A.
    public var rgba: [UInt8]
    public var x: Int
    public var y: Int

    public init(width: Int, height: Int, rgba: [UInt8], x: Int, y: Int) throws(MediaError) {
        guard width > 0, height > 0, rgba.count == width * height * 4 else {
            throw .badInput("badge of \(width)x\(height) needs \(max(0, width * height * 4)) RGBA bytes, got \(rgba.count)")
        }
        self.width = width
        self.height = height
        self.rgba = rgba
        self.x = x
        self.y = y
    }
}
