import CPixman

/// Composes any scene's layers into a display's pixels. One compositor serves
/// every scene and backend.
///
/// The destination is never read. It may be a scanout buffer (write-combined on
/// real GPUs, where reads crawl), so:
/// - opaque layers (solid fills, image copies, the text block) are written
///   straight into the target with SRC (row memcpy for copies), only in the
///   rectangles left after cutting out the overlay areas;
/// - each area with a blended layer (marker, badge) is composed in a small
///   scratch canvas in ordinary memory from all layers that touch it, and then
///   copied into the target with SRC.
/// So every target pixel is written once, and a full prompter frame costs about
/// one copy of the display plus the overlays' small areas.
public final class Compositor {
    /// Reused between frames so a frame allocates nothing in the steady state.
    private var scratch: Canvas?
    private let arrows = ArrowMaskCache()

    public init() {}

    public func compose(_ layers: [Layer], into target: PixelTarget) {
        let full = PixelRect(size: target.size)
        let image = target.pixmanImage
        let overlays = layers.flatMap(\.overlayAreas).map { $0.intersection(full) }.filter { !$0.isEmpty }

        // The target minus the overlay areas, as rectangles. Opaque layers are drawn
        // once per rectangle (no pixman clip region: the copies bypass pixman).
        let openAreas = Self.subtract(overlays, from: full)
        for (index, layer) in layers.enumerated() where layer.isOpaqueCopy {
            guard !Self.isHidden(layer, by: layers[(index + 1)...]) else { continue }
            for area in openAreas where area.intersects(layer.bounds) {
                layer.draw(into: image, dx: 0, dy: 0, clip: area, arrows: arrows)
            }
        }

        for rect in overlays {
            guard let scratch = scratchCanvas(for: rect.size) else { continue }
            let area = PixelRect(size: rect.size)
            for layer in layers where layer.bounds.intersects(rect) {
                layer.draw(into: scratch.pixmanImage, dx: -rect.x, dy: -rect.y, clip: area, arrows: arrows)
            }
            PixmanDraw.copy(scratch.pixmanImage, sourceRect: area, into: image, x: rect.x, y: rect.y)
        }
    }

    /// `rect` less `holes`, as disjoint rectangles (pixman's region arithmetic).
    static func subtract(_ holes: [PixelRect], from rect: PixelRect) -> [PixelRect] {
        guard !holes.isEmpty else { return [rect] }
        var region = pixman_region32_t()
        pixman_region32_init_rect(&region, Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height))
        for hole in holes {
            var cut = pixman_region32_t()
            pixman_region32_init_rect(&cut, Int32(hole.x), Int32(hole.y), UInt32(hole.width), UInt32(hole.height))
            var remaining = pixman_region32_t()
            pixman_region32_init(&remaining)
            pixman_region32_subtract(&remaining, &region, &cut)
            pixman_region32_fini(&region)
            pixman_region32_fini(&cut)
            region = remaining
        }
        var count: Int32 = 0
        var result: [PixelRect] = []
        if let boxes = pixman_region32_rectangles(&region, &count) {
            for box in UnsafeBufferPointer(start: boxes, count: Int(count)) {
                result.append(PixelRect(x: Int(box.x1), y: Int(box.y1), width: Int(box.x2 - box.x1),
                                        height: Int(box.y2 - box.y1)))
            }
        }
        pixman_region32_fini(&region)
        return result
    }

    /// A layer entirely covered by a later opaque layer is not drawn at all
    /// (the outer scene's background under a full-screen text block).
    private static func isHidden(_ layer: Layer, by later: ArraySlice<Layer>) -> Bool {
        later.contains { $0.isOpaqueCopy && $0.bounds.contains(layer.bounds) }
    }

    private func scratchCanvas(for size: PixelSize) -> Canvas? {
        if let scratch, scratch.width >= size.width, scratch.height >= size.height { return scratch }
        let width = max(size.width, scratch?.width ?? 0), height = max(size.height, scratch?.height ?? 0)
        scratch = try? Canvas(width: width, height: height)
        return scratch
    }
}
