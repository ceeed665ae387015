import CPixman
import Glibc

/// The handful of pixman operations the compositor is built from. Every one
/// names its operator: SRC writes without reading the destination, OVER reads it.
enum PixmanDraw {
    /// Fills `rect` with `color`: SRC when opaque (no destination read), OVER otherwise.
    /// pixman's SRC fill writes outside the image if asked, so clip here.
    static func fill(_ image: OpaquePointer, rect unclipped: PixelRect, color: Color) {
        let rect = unclipped.intersection(bounds(of: image))
        guard !rect.isEmpty else { return }
        var pixmanColor = color.pixmanColor
        var box = pixman_box32_t(x1: Int32(rect.x), y1: Int32(rect.y),
                                 x2: Int32(rect.maxX), y2: Int32(rect.maxY))
        _ = pixman_image_fill_boxes(color.isOpaque ? PIXMAN_OP_SRC : PIXMAN_OP_OVER,
                                    image, &pixmanColor, 1, &box)
    }

    static func bounds(of image: OpaquePointer) -> PixelRect {
        PixelRect(x: 0, y: 0, width: Int(pixman_image_get_width(image)),
                  height: Int(pixman_image_get_height(image)))
    }

    /// Where a copy of `sourceRect` of an image of `sourceSize` to `x, y` lands in one
    /// of `destinationSize`, clipped to both (the source shifting with the
    /// destination): the rectangle written and the source pixel copied to its
    /// top-left; nil when nothing lands.
    static func placement(of sourceRect: PixelRect, from sourceSize: PixelSize, at x: Int, _ y: Int,
                          in destinationSize: PixelSize) -> (target: PixelRect, sourceX: Int, sourceY: Int)? {
        let placed = PixelRect(x: x, y: y, width: sourceRect.width, height: sourceRect.height)
        let sourceBounds = PixelRect(size: sourceSize).offsetBy(dx: x - sourceRect.x, dy: y - sourceRect.y)
        let target = placed.intersection(PixelRect(size: destinationSize)).intersection(sourceBounds)
        guard !target.isEmpty else { return nil }
        return (target, sourceRect.x + (target.x - x), sourceRect.y + (target.y - y))
    }

    /// Copies `source` (whole image) so that its top-left lands at `x, y`:
    /// a plain SRC blit, never a read of the destination.
    static func copy(_ source: OpaquePointer, size: PixelSize, into destination: OpaquePointer,
                     x: Int, y: Int) {
        copy(source, sourceRect: PixelRect(size: size), into: destination, x: x, y: y)
    }

    /// Copies the part `sourceRect` of `source` to `x, y` with SRC. Between two
    /// untransformed XRGB8888 images this is a memcpy per row: glibc's copy moves a
    /// frame with far fewer instructions than pixman's SSE2 blit, and the frame path
    /// is nothing but these copies.
    static func copy(_ source: OpaquePointer, sourceRect: PixelRect, into destination: OpaquePointer,
                     x: Int, y: Int) {
        guard let (target, sx, sy) = placement(of: sourceRect, from: bounds(of: source).size, at: x, y,
                                               in: bounds(of: destination).size) else { return }
        guard pixman_image_get_format(source) == PIXMAN_x8r8g8b8,
              pixman_image_get_format(destination) == PIXMAN_x8r8g8b8,
              let sourceBits = pixman_image_get_data(source),
              let destinationBits = pixman_image_get_data(destination)
        else {
            pixman_image_composite32(PIXMAN_OP_SRC, source, nil, destination, Int32(sx), Int32(sy), 0, 0,
                                     Int32(target.x), Int32(target.y), Int32(target.width),
                                     Int32(target.height))
            return
        }
        let sourceStride = Int(pixman_image_get_stride(source)) / 4
        let destinationStride = Int(pixman_image_get_stride(destination)) / 4
        let rowBytes = target.width * 4
        var from = sourceBits + sy * sourceStride + sx
        var to = destinationBits + target.y * destinationStride + target.x
        if target.width == sourceStride && target.width == destinationStride {
            // Whole rows on both sides (upright text, full-width pieces): one block.
            memcpy(to, from, rowBytes * target.height)
            return
        }
        for _ in 0..<target.height {
            memcpy(to, from, rowBytes)
            from += sourceStride
            to += destinationStride
        }
    }
}

/// Owner of a pixman solid-fill source image.
final class SolidFill {
    let image: OpaquePointer

    init?(_ color: Color) {
        var pixmanColor = color.pixmanColor
        guard let image = pixman_image_create_solid_fill(&pixmanColor) else { return nil }
        self.image = image
    }

    deinit {
        pixman_image_unref(image)
    }
}

/// Owner of a small A8 coverage image, for shapes drawn through a solid colour.
final class AlphaMask {
    let image: OpaquePointer
    let width: Int
    let height: Int

    init?(width: Int, height: Int, coverage: (Int, Int) -> UInt8) {
        guard width > 0, height > 0,
              let image = pixman_image_create_bits(PIXMAN_a8, Int32(width), Int32(height), nil, 0),
              let data = pixman_image_get_data(image)
        else { return nil }
        let stride = Int(pixman_image_get_stride(image))
        let bytes = UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt8.self)
        for y in 0..<height {
            for x in 0..<width { bytes[y * stride + x] = coverage(x, y) }
        }
        self.image = image
        self.width = width
        self.height = height
    }

    deinit {
        pixman_image_unref(image)
    }

    /// Blends `solid` through this mask OVER `destination` at (x, y), within `clip`.
    func composite(_ solid: SolidFill, into destination: OpaquePointer, x: Int, y: Int, clip: PixelRect) {
        let area = PixelRect(x: x, y: y, width: width, height: height).intersection(clip)
            .intersection(PixmanDraw.bounds(of: destination))
        guard !area.isEmpty else { return }
        pixman_image_composite32(PIXMAN_OP_OVER, solid.image, image, destination, 0, 0,
                                 Int32(area.x - x), Int32(area.y - y), Int32(area.x), Int32(area.y),
                                 Int32(area.width), Int32(area.height))
    }
}
