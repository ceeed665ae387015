import CPixman
import Glibc

/// An image whose every pixel is a shade of gray, one byte a pixel: how a cached piece
/// of white-on-black text (or any gray on gray) is kept. Drawn into an XRGB8888 image
/// it expands each byte to the three equal channels, so the frame gets exactly the
/// pixels the XRGB piece had.
///
/// Why: the pieces are most of the reading text's memory and all of what a scrolling
/// frame reads. A quarter of the bytes holds four times the row phases in the same
/// budget (at 4K, sixteen where four fitted), and a frame at a new phase reads a
/// quarter as much from memory.
public final class GrayCanvas {
    public let size: PixelSize
    /// Gray levels from the top-left corner, row after row, `size.width` per row.
    public let pixels: UnsafeMutableBufferPointer<UInt8>

    public var byteCount: Int { pixels.count }

    public init(size: PixelSize) throws(ImageError) {
        guard (1...Canvas.maximumSide).contains(size.width), (1...Canvas.maximumSide).contains(size.height)
        else { throw .invalidSize(width: size.width, height: size.height) }
        let bytes = size.width * size.height
        guard let memory = Canvas.allocatePixels(bytes: bytes) else {
            throw .outOfMemory(width: size.width, height: size.height)
        }
        self.size = size
        pixels = UnsafeMutableBufferPointer(start: memory.assumingMemoryBound(to: UInt8.self), count: bytes)
    }

    deinit {
        free(pixels.baseAddress)
    }

    /// `canvas` as gray levels, written into `spare` when it has the same size; nil
    /// when a pixel of it is not gray (coloured text, a highlight, an emoji).
    public static func gray(of canvas: Canvas, reusing spare: GrayCanvas? = nil) -> GrayCanvas? {
        guard let gray = spare?.size == canvas.size ? spare : try? GrayCanvas(size: canvas.size),
              let to = gray.pixels.baseAddress, let from = canvas.pixels.baseAddress,
              rig_gray_from_xrgb(to, from, canvas.pixels.count) != 0
        else { return nil }
        return gray
    }

    /// Copies the part `sourceRect` to `x, y` of `destination` (an XRGB8888 or
    /// ARGB8888 pixman image), clipped to both, writing each pixel opaque.
    public func copy(sourceRect: PixelRect, into destination: OpaquePointer, x: Int, y: Int) {
        guard let (target, sx, sy) = PixmanDraw.placement(of: sourceRect, from: size, at: x, y,
                                                          in: PixmanDraw.bounds(of: destination).size),
              let base = pixels.baseAddress else { return }
        let format = pixman_image_get_format(destination)
        guard format == PIXMAN_x8r8g8b8 || format == PIXMAN_a8r8g8b8,
              let destinationBits = pixman_image_get_data(destination) else {
            // Not a frame format: expand into a canvas of the area and blit that.
            guard let area = try? Canvas(size: target.size) else { return }
            copy(sourceRect: PixelRect(x: sx, y: sy, width: target.width, height: target.height),
                 into: area.pixmanImage, x: 0, y: 0)
            PixmanDraw.copy(area.pixmanImage, size: area.size, into: destination, x: target.x, y: target.y)
            return
        }
        let destinationStride = Int(pixman_image_get_stride(destination)) / 4
        var from = base + sy * size.width + sx
        var to = destinationBits + target.y * destinationStride + target.x
        if target.width == size.width && target.width == destinationStride {
            rig_expand_gray(to, from, target.width * target.height)
            return
        }
        for _ in 0..<target.height {
            rig_expand_gray(to, from, target.width)
            from += size.width
            to += destinationStride
        }
    }

    /// Copies the part `sourceRect` of `source` to `x, y` here, clipped to both.
    public func paste(_ source: GrayCanvas, sourceRect: PixelRect, x: Int, y: Int) {
        guard let (target, sx, sy) = PixmanDraw.placement(of: sourceRect, from: source.size, at: x, y, in: size),
              let from = source.pixels.baseAddress, let to = pixels.baseAddress else { return }
        for row in 0..<target.height {
            memcpy(to + (target.y + row) * size.width + target.x, from + (sy + row) * source.size.width + sx,
                   target.width)
        }
    }

    /// Sets `rect` (clipped) to gray level `level`.
    public func fill(_ rect: PixelRect, level: UInt8) {
        let area = rect.intersection(PixelRect(size: size))
        guard !area.isEmpty, let base = pixels.baseAddress else { return }
        for row in area.y..<area.maxY {
            memset(base + row * size.width + area.x, Int32(level), area.width)
        }
    }
}
