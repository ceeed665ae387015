import Render
import Testing

/// A scrolling cache evicts a piece for each one it makes; the new piece is painted
/// into the evicted one's canvas, because fresh memory faulted in page by page was
/// most of a 4K piece's rasterizing. Mirrored, flipped and half-turned pieces are
/// reflected in place instead of sampled through pixman into a second canvas.
@Suite struct PieceCanvasReuseTests {
    let display = PixelSize(width: 200, height: 100)

    func block(_ transform: TextTransform, budget: Int) -> ChunkedTextBlock {
        ChunkedTextBlock(lines: BarLines(count: 3_000, lineHeight: 9, columnWidth: 180), columnWidth: 200,
                         textInset: 10, textColor: Color(rgb: 0xf0e0d0), background: Color(rgb: 0x102030),
                         transform: transform, cacheBudgetBytes: budget, rowPhases: 1)
    }

    func frame(_ block: ChunkedTextBlock, top: Int) throws -> Canvas {
        let canvas = try Canvas(size: display)
        block.draw(into: canvas.pixmanImage, frame: PixelRect(size: display), clip: PixelRect(size: display),
                   viewportTop: top)
        return canvas
    }

    /// Scrolling through a script ten times the budget: once the budget is full, the
    /// pieces are painted into evicted canvases, the budget holds with the spares in
    /// it, and every frame has the pixels of a block that never evicted anything.
    @Test(arguments: [TextTransform.identity, TextTransform(mirror: true), TextTransform(flip: true),
                      TextTransform(rotation: .half), TextTransform(mirror: true, flip: true, rotation: .half)])
    func evictedCanvasesAreReusedWithinTheBudget(transform: TextTransform) throws {
        let budget = 40 * display.width * display.height   // ten screens of pieces
        let scrolling = block(transform, budget: budget)
        let roomy = block(transform, budget: 1 << 30)
        var peak = 0
        for top in stride(from: 0, to: 20_000, by: 37) {
            let drawn = try frame(scrolling, top: top)
            peak = max(peak, scrolling.cachedBytes)
            if top % 1_110 == 0 {
                #expect(drawn.hasSamePixels(as: try frame(roomy, top: top)), "\(transform) at \(top)")
            }
        }
        #expect(peak <= budget)
        // A chunk here is a tall piece and a short one: a canvas is kept only for a
        // piece of its own size, and evicting a tall one frees room for a short one
        // without a canvas to reuse, so about half of them find one (none did before).
        #expect(scrolling.rasterizedPieceCount > 50)
        #expect(scrolling.reusedCanvasCount * 3 > scrolling.rasterizedPieceCount,
                "\(scrolling.reusedCanvasCount) of \(scrolling.rasterizedPieceCount)")
    }

    /// In place, a reflection gives the pixels pixman's sampling gives into a new canvas.
    @Test(arguments: TextTransform.allCombinations.filter { !$0.swapsAxes })
    func aReflectionInPlaceIsTheSampledOne(transform: TextTransform) throws {
        let upright = try Canvas(width: 37, height: 11)
        for (index, _) in upright.pixels.enumerated() { upright.pixels[index] = UInt32(index) &* 2_654_435_761 }
        let sampled = try #require(transform.apply(to: upright))
        let copy = try Canvas(width: 37, height: 11)
        copy.pixels.baseAddress?.update(from: upright.pixels.baseAddress!, count: upright.pixels.count)
        transform.reflect(copy)
        #expect(copy.hasSamePixels(as: sampled), "\(transform)")
    }
}
