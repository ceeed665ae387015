import CPixman
import Render

/// Plain pixel helpers for tests: reference drawing and exact pixel maps, done
/// the slow obvious way so they can judge the fast paths.
enum TestDrawing {
    static func fill(_ image: OpaquePointer, rect unclipped: PixelRect, color: Color) {
        // pixman's SRC fill does not clip to the image.
        let rect = unclipped.intersection(PixelRect(x: 0, y: 0, width: Int(pixman_image_get_width(image)),
                                                    height: Int(pixman_image_get_height(image))))
        guard !rect.isEmpty else { return }
        var pixmanColor = pixman_color_t(red: UInt16(color.red) * 257, green: UInt16(color.green) * 257,
                                         blue: UInt16(color.blue) * 257, alpha: 0xffff)
        var box = pixman_box32_t(x1: Int32(rect.x), y1: Int32(rect.y), x2: Int32(rect.maxX),
                                 y2: Int32(rect.maxY))
        _ = pixman_image_fill_boxes(PIXMAN_OP_SRC, image, &pixmanColor, 1, &box)
    }

    /// A canvas whose pixel (x, y) is `source` at `sourcePoint(x, y)`.
    static func remap(_ source: Canvas, to size: PixelSize,
                      _ sourcePoint: (Int, Int) -> (Int, Int)) throws -> Canvas {
        let result = try Canvas(size: size)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let (sx, sy) = sourcePoint(x, y)
                result.pixels[y * size.width + x] = source.pixel(x: sx, y: sy)
            }
        }
        return result
    }

    /// `upright` as the transform shows it: the pixel-by-pixel definition.
    static func transformed(_ upright: Canvas, by transform: TextTransform) throws -> Canvas {
        let w = upright.width, h = upright.height
        let size = transform.displaySize(forText: upright.size)
        return try remap(upright, to: size) { x, y in
            // Undo the rotation, then the flip and the mirror.
            var (u, v): (Int, Int)
            switch transform.rotation {
            case .none: (u, v) = (x, y)
            case .quarter: (u, v) = (y, h - 1 - x)
            case .half: (u, v) = (w - 1 - x, h - 1 - y)
            case .threeQuarters: (u, v) = (w - 1 - y, x)
            }
            if transform.mirror { u = w - 1 - u }
            if transform.flip { v = h - 1 - v }
            return (u, v)
        }
    }

    static func mirroredHorizontally(_ canvas: Canvas) throws -> Canvas {
        try remap(canvas, to: canvas.size) { x, y in (canvas.width - 1 - x, y) }
    }

    static func crop(_ canvas: Canvas, _ rect: PixelRect) throws -> Canvas {
        try remap(canvas, to: rect.size) { x, y in (x + rect.x, y + rect.y) }
    }

    /// Number of pixels whose colour differs.
    static func differingPixels(_ a: Canvas, _ b: Canvas) -> Int {
        guard a.size == b.size else { return Int.max }
        var count = 0
        for index in 0..<a.pixels.count where (a.pixels[index] ^ b.pixels[index]) & 0xffffff != 0 {
            count += 1
        }
        return count
    }
}
