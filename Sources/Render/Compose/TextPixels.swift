/// Pixels the text block keeps (a cached piece, a quarter-turn window): XRGB8888, or
/// one byte a pixel when every pixel is gray (GrayCanvas, a quarter of the memory).
/// A frame draws either the same way.
enum TextPixels {
    case color(Canvas)
    case gray(GrayCanvas)

    var size: PixelSize {
        switch self {
        case .color(let canvas): return canvas.size
        case .gray(let gray): return gray.size
        }
    }

    var byteCount: Int {
        switch self {
        case .color(let canvas): return canvas.byteCount
        case .gray(let gray): return gray.byteCount
        }
    }

    /// Copies the part `sourceRect` to `x, y` of `destination`, writing every pixel.
    func copy(sourceRect: PixelRect, into destination: OpaquePointer, x: Int, y: Int) {
        switch self {
        case .color(let canvas):
            PixmanDraw.copy(canvas.pixmanImage, sourceRect: sourceRect, into: destination, x: x, y: y)
        case .gray(let gray):
            gray.copy(sourceRect: sourceRect, into: destination, x: x, y: y)
        }
    }
}
