/// Where the text block draws its viewport from the pieces: a pixman image (a frame,
/// the band's strip, a quarter-turn window in colour) or a gray window's levels.
enum TextTarget {
    case image(OpaquePointer)
    case gray(GrayCanvas)

    /// The target of a window's pixels.
    init(_ pixels: TextPixels) {
        switch pixels {
        case .color(let canvas): self = .image(canvas.pixmanImage)
        case .gray(let gray): self = .gray(gray)
        }
    }

    /// Draws the part `sourceRect` of `pixels` at `x, y`; false when they are in
    /// colour and this holds gray levels.
    func copy(_ pixels: TextPixels, sourceRect: PixelRect, x: Int, y: Int) -> Bool {
        switch (self, pixels) {
        case (.image(let image), _):
            pixels.copy(sourceRect: sourceRect, into: image, x: x, y: y)
        case (.gray(let levels), .gray(let gray)):
            levels.paste(gray, sourceRect: sourceRect, x: x, y: y)
        case (.gray, .color):
            return false
        }
        return true
    }

    /// Fills `rect` with `color`; false when it is not gray and this holds gray levels.
    func fill(_ rect: PixelRect, color: Color) -> Bool {
        switch self {
        case .image(let image):
            PixmanDraw.fill(image, rect: rect, color: color)
        case .gray(let levels):
            guard color.isGray, color.isOpaque else { return false }
            levels.fill(rect, level: color.green)
        }
        return true
    }
}
