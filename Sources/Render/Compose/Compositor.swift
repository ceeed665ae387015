import CPixman

/// Composes any scene's layers into a display's pixels. One compositor serves
/// every scene and backend.
///
/// The destination is never read. It may be a scanout buffer (write-combined on
/// real GPUs, where reads crawl), so:
/// - opaque layers (solid fills, image copies, the text block) are written
///   straight into the target with SRC, clipped so they skip the overlay areas;
/// - each area with a blended layer (marker, badge) is composed in a small
///   scratch canvas in ordinary memory from all layers that touch it, and then
///   copied into the target with SRC.
/// So every target pixel is written once, and a full prompter frame costs about
/// one copy of the display plus the overlays' small areas.
public final class Compositor {
    /// Reused between frames so a frame allocates nothing in the steady state.
    private var scratch: Canvas?

    public init() {}

    public func compose(_ layers: [Layer], into target: PixelTarget) {
        let full = PixelRect(size: target.size)
        let image = target.pixmanImage
        let overlays = layers.filter { !$0.isOpaqueCopy }.map { $0.bounds.intersection(full) }
            .filter { !$0.isEmpty }

        var region = pixman_region32_t()
        pixman_region32_init_rect(&region, 0, 0, UInt32(full.width), UInt32(full.height))
        for rect in overlays {
            var hole = pixman_region32_t()
            pixman_region32_init_rect(&hole, Int32(rect.x), Int32(rect.y), UInt32(rect.width),
                                      UInt32(rect.height))
            var remaining = pixman_region32_t()
            pixman_region32_init(&remaining)
            pixman_region32_subtract(&remaining, &region, &hole)
            pixman_region32_fini(&region)
            pixman_region32_fini(&hole)
            region = remaining
        }
        if !overlays.isEmpty { pixman_image_set_clip_region32(image, &region) }
        for (index, layer) in layers.enumerated() where layer.isOpaqueCopy {
            guard !Self.isHidden(layer, by: layers[(index + 1)...]) else { continue }
            layer.draw(into: image, dx: 0, dy: 0, clip: full)
        }
        if !overlays.isEmpty { pixman_image_set_clip_region32(image, nil) }
        pixman_region32_fini(&region)

        for rect in overlays {
            guard let scratch = scratchCanvas(for: rect.size) else { continue }
            let area = PixelRect(size: rect.size)
            for layer in layers where layer.bounds.intersects(rect) {
                layer.draw(into: scratch.pixmanImage, dx: -rect.x, dy: -rect.y, clip: area)
            }
            PixmanDraw.copy(scratch.pixmanImage, sourceRect: area, into: image, x: rect.x, y: rect.y)
        }
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
