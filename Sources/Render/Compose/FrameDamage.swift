import CPixman

/// The layers last composed into one buffer, and what each one's pixels hung on then.
struct HeldFrame {
    let size: PixelSize
    let layers: [Layer]
    let generations: [Int]

    init(size: PixelSize, layers: [Layer]) {
        self.size = size
        self.layers = layers
        generations = layers.map(\.drawingGeneration)
    }
}

/// Where a buffer holding one frame must be drawn again to hold the next: the
/// bounds of every layer that is not in both frames in the same order, and of a
/// text block that only scrolled, the rows and columns where it has ink before or
/// after (`ChunkedTextBlock.changedArea`).
///
/// Why that is enough: a pixel outside those bounds is covered only by layers
/// the two frames share, stacked in the same order, so it comes out the same
/// (a scrolled block's pixels there are the same background in both).
/// Layers are matched in order, each new one against the next few old ones; a
/// layer found nowhere near (a list reordered) only makes the damage larger.
enum FrameDamage {
    /// How far ahead in the old frame a new layer is looked for.
    static let lookahead = 8

    static func between(_ old: HeldFrame, _ new: HeldFrame) -> [PixelRect] {
        let full = PixelRect(size: new.size)
        guard old.size == new.size else { return [full] }
        var changed: [PixelRect] = []
        var next = 0   // the first old layer not yet matched or passed
        for (index, layer) in new.layers.enumerated() {
            let window = next..<min(old.layers.count, next + lookahead)
            let match = window.first { old.generations[$0] == new.generations[index]
                && layer.drawsSamePixels(as: old.layers[$0]) }
            guard let match else {
                // The old layer next in line, moved: the same text block scrolled.
                if next < old.layers.count, old.generations[next] == new.generations[index],
                   let moved = layer.changedArea(since: old.layers[next]) {
                    changed += moved
                    next += 1
                } else {
                    changed.append(layer.bounds)
                }
                continue
            }
            // Old layers passed over are gone from the new frame.
            changed += old.layers[next..<match].map(\.bounds)
            next = match + 1
        }
        changed += old.layers[next...].map(\.bounds)
        return union(changed.map { $0.intersection(full) }.filter { !$0.isEmpty })
    }

    /// Disjoint rectangles covering `rects` (pixman's region arithmetic).
    static func union(_ rects: [PixelRect]) -> [PixelRect] {
        guard rects.count > 1 else { return rects }
        var region = pixman_region32_t()
        var boxes = rects.map { pixman_box32_t(x1: Int32($0.x), y1: Int32($0.y), x2: Int32($0.maxX), y2: Int32($0.maxY)) }
        pixman_region32_init_rects(&region, &boxes, Int32(boxes.count))
        defer { pixman_region32_fini(&region) }
        var count: Int32 = 0
        guard let result = pixman_region32_rectangles(&region, &count) else { return [] }
        return UnsafeBufferPointer(start: result, count: Int(count)).map {
            PixelRect(x: Int($0.x1), y: Int($0.y1), width: Int($0.x2 - $0.x1), height: Int($0.y2 - $0.y1))
        }
    }
}
