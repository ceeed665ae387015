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
///
/// A console frame of which only the times and the script's copy moved need not be
/// composed whole: `compose(_:into:onlyChanges:)` redraws only the damage since the
/// frame the buffer holds (FrameDamage), with the same pixels as a whole frame.
public final class Compositor {
    /// Reused between frames so a frame allocates nothing in the steady state.
    private var scratch: Canvas?
    private let arrows = ArrowMaskCache()
    /// The frame each buffer (by its pixel memory) was last composed with.
    private var held: [UnsafeMutableRawPointer: HeldFrame] = [:]

    public init() {}

    /// Composes `layers` into `target`. With `onlyChanges`, a target this compositor
    /// composed before is taken to hold that frame still, and only what differs is
    /// drawn: the caller says so only when nothing else wrote into it since (no new
    /// buffer, no blanking); `forgetHeldFrames` when that is not so. Returns the
    /// pixels drawn.
    @discardableResult
    public func compose(_ layers: [Layer], into target: PixelTarget, onlyChanges: Bool = false) -> Int {
        let full = PixelRect(size: target.size)
        let key = pixman_image_get_data(target.pixmanImage).map(UnsafeMutableRawPointer.init)
        var areas = [full]
        if let key {
            if onlyChanges {
                // Only callers that compare keep frames (the outer display's would be work for nothing).
                let frame = HeldFrame(size: target.size, layers: layers)
                if let old = held[key] { areas = FrameDamage.between(old, frame) }
                if held[key] == nil, held.count >= 4 { held.removeAll() }
                held[key] = frame
            } else {
                held[key] = nil
            }
        }
        compose(layers, into: target.pixmanImage, within: areas)
        return areas.reduce(0) { $0 + $1.width * $1.height }
    }

    /// Every buffer's content is unknown from now on: each is composed whole next.
    public func forgetHeldFrames() {
        held.removeAll()
    }

    private func compose(_ layers: [Layer], into image: OpaquePointer, within areas: [PixelRect]) {
        // Worked out once per frame, not per area: a console has a hundred layers.
        let bounds = layers.map(\.bounds)
        let allOverlays = layers.flatMap(\.overlayAreas)
        let opaque = layers.indices.filter { layers[$0].isOpaqueCopy }
        // Each opaque layer is drawn once, bottom layer first, with all its open areas
        // of every damaged area: the areas are disjoint, so each pixel still gets its
        // layers in order, and a layer that copies by rows (a quarter turn's window)
        // reads each row once across the many narrow areas a scroll damages.
        var clips = [[PixelRect]](repeating: [], count: layers.count)
        var overlayRects: [PixelRect] = []
        for area in areas {
            let overlays = allOverlays.map { $0.intersection(area) }.filter { !$0.isEmpty }
            overlayRects += overlays
            // The area minus the overlay areas, as rectangles. Opaque layers are drawn
            // once per rectangle (no pixman clip region: the copies bypass pixman).
            let openAreas = Self.subtract(overlays, from: area)
            let touching = opaque.filter { bounds[$0].intersects(area) }
            for (order, index) in touching.enumerated() {
                // A layer whose part in this area a later opaque layer covers is not
                // drawn at all (the console's background under the script's copy).
                let part = bounds[index].intersection(area)
                guard !touching[(order + 1)...].contains(where: { bounds[$0].contains(part) }) else { continue }
                clips[index] += openAreas.filter { $0.intersects(part) }
            }
        }
        for index in opaque where !clips[index].isEmpty {
            layers[index].draw(into: image, dx: 0, dy: 0, clips: clips[index], arrows: arrows)
        }
        for rect in overlayRects {
            guard let scratch = scratchCanvas(for: rect.size) else { continue }
            let local = PixelRect(size: rect.size)
            for index in layers.indices where bounds[index].intersects(rect) {
                layers[index].draw(into: scratch.pixmanImage, dx: -rect.x, dy: -rect.y, clips: [local], arrows: arrows)
            }
            PixmanDraw.copy(scratch.pixmanImage, sourceRect: local, into: image, x: rect.x, y: rect.y)
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

    private func scratchCanvas(for size: PixelSize) -> Canvas? {
        if let scratch, scratch.width >= size.width, scratch.height >= size.height { return scratch }
        let width = max(size.width, scratch?.width ?? 0), height = max(size.height, scratch?.height ?? 0)
        scratch = try? Canvas(width: width, height: height)
        return scratch
    }
}
