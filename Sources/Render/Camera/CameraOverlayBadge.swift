import CYUV

/// A pre-rendered, premultiplied ARGB image blended over a camera preview with
/// libyuv's ARGBBlend. The scenes draw the real cue badge (text, pixman); this type
/// exists so the camera benchmark times the whole per-frame cost, overlay included,
/// and so a cached badge can be stamped onto a preview without going through pixman.
public final class CameraOverlayBadge {
    public let width: Int
    public let height: Int
    private let pixels: UnsafeMutablePointer<UInt32>

    /// A cue-style badge: yellow rounded square, white border, dark block in the middle
    /// (the letter's place). Drawn once; per-pixel work here is set-up, not per frame.
    public init(side: Int) {
        width = max(8, side)
        height = width
        pixels = .allocate(capacity: width * height)
        let radius = Double(width) * 0.2
        let border = Double(width) * 0.05
        let half = Double(width) / 2
        for y in 0..<height {
            for x in 0..<width {
                // Distance outside the rounded square, as in a signed distance field.
                let dx = max(abs(Double(x) + 0.5 - half) - (half - radius), 0)
                let dy = max(abs(Double(y) + 0.5 - half) - (half - radius), 0)
                let outside = (dx * dx + dy * dy).squareRoot() - radius
                let coverage = max(0, min(1, 0.5 - outside))
                let inset = -outside
                var color: (r: Double, g: Double, b: Double) = inset < border ? (255, 255, 255) : (255, 204, 0)
                let inner = abs(Double(x) - half) < half * 0.35 && abs(Double(y) - half) < half * 0.5
                if inner { color = (28, 28, 30) }
                let a = coverage * 255
                pixels[y * width + x] = UInt32(a.rounded()) << 24
                    | UInt32((color.r * coverage).rounded()) << 16
                    | UInt32((color.g * coverage).rounded()) << 8
                    | UInt32((color.b * coverage).rounded())
            }
        }
    }

    deinit { pixels.deallocate() }

    /// Blends the badge over `destination` with its top-left corner at (x, y),
    /// clipped to the region.
    public func blend(onto destination: XRGBRegion, x: Int, y: Int) {
        let left = max(0, x), top = max(0, y)
        let right = min(destination.width, x + width), bottom = min(destination.height, y + height)
        guard right > left, bottom > top else { return }
        let source = UnsafeRawPointer(pixels + (top - y) * width + (left - x)).assumingMemoryBound(to: UInt8.self)
        let target = destination.bytes + top * destination.bytesPerRow + left * 4
        // In place: libyuv blends pixel by pixel, so reading and writing the same row is safe.
        _ = ARGBBlend(source, Int32(width * 4), target, Int32(destination.bytesPerRow), target,
                      Int32(destination.bytesPerRow), Int32(right - left), Int32(bottom - top))
    }

    /// The premultiplied pixel at (x, y), for tests.
    public func pixel(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }
}
