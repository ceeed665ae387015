import Render
import Testing

@Suite struct ChunkedTextBlockTests {
    let background = Color(rgb: 0x102030)
    let ink = Color(rgb: 0xf0e0d0)

    func block(lines: BarLines, display: PixelSize, transform: TextTransform = .identity,
               budget: Int = ChunkedTextBlock.defaultCacheBudgetBytes) -> ChunkedTextBlock {
        ChunkedTextBlock(lines: lines, columnWidth: transform.textSize(forDisplay: display).width,
                         textInset: 10, textColor: ink, background: background,
                         transform: transform, cacheBudgetBytes: budget)
    }

    /// The upright viewport drawn the obvious way: every line straight into one canvas.
    func uprightViewport(lines: BarLines, size: PixelSize, viewportTop: Int) throws -> Canvas {
        let canvas = try Canvas(size: size)
        canvas.fill(background)
        for index in 0..<lines.count {
            let box = try #require(lines.lineBox(at: index))
            lines.drawLine(at: index, into: canvas.pixmanImage, x: 10, y: box.y - viewportTop, rowFraction: 0,
                           color: ink, accents: nil)
        }
        return canvas
    }

    func frame(of block: ChunkedTextBlock, display: PixelSize, viewportTop: Int) throws -> Canvas {
        let canvas = try Canvas(size: display)
        canvas.fill(Color(rgb: 0xff00ff))   // must be fully overwritten
        block.draw(into: canvas.pixmanImage, frame: PixelRect(size: display),
                   clip: PixelRect(size: display), viewportTop: viewportTop)
        return canvas
    }

    @Test(arguments: TextTransform.allCombinations)
    func everyTransformShowsTheUprightTextTransformedPixelForPixel(transform: TextTransform) throws {
        let display = PixelSize(width: 160, height: 90)
        let viewport = transform.textSize(forDisplay: display)
        let lines = BarLines(count: 120, lineHeight: 7, columnWidth: viewport.width - 20)
        let textBlock = block(lines: lines, display: display, transform: transform)
        // Mid-text, then near the start with blank space above the first line.
        for viewportTop in [333, -40] {
            let drawn = try frame(of: textBlock, display: display, viewportTop: viewportTop)
            let expected = try TestDrawing.transformed(
                uprightViewport(lines: lines, size: viewport, viewportTop: viewportTop), by: transform)
            #expect(TestDrawing.differingPixels(drawn, expected) == 0, "\(transform) at \(viewportTop)")
        }
    }

    @Test func pastTheEndIsBackground() throws {
        let display = PixelSize(width: 64, height: 48)
        let lines = BarLines(count: 30, lineHeight: 5, columnWidth: 40)
        let textBlock = block(lines: lines, display: display)
        #expect(textBlock.measureContentHeight() == 150)
        let drawn = try frame(of: textBlock, display: display, viewportTop: 140)
        #expect(drawn.color(x: 30, y: 20) == background)
        #expect(drawn.color(x: 0, y: 47) == background)
    }

    @Test func firstFrameLaysOutOnlyTheTop() throws {
        let display = PixelSize(width: 200, height: 100)
        let lines = BarLines(count: 100_000, lineHeight: 10, columnWidth: 180)
        let textBlock = block(lines: lines, display: display)
        _ = try frame(of: textBlock, display: display, viewportTop: -33)
        #expect(lines.deepestLineAsked < 4 * ChunkedTextBlock.linesPerChunk)
        #expect(textBlock.contentHeight == nil)
    }

    @Test func cacheStaysWithinBudgetWhileScrollingALongScript() throws {
        let display = PixelSize(width: 200, height: 120)
        let budget = 400_000   // about four screens
        let lines = BarLines(count: 5_000, lineHeight: 12, columnWidth: 180)
        let textBlock = block(lines: lines, display: display, budget: budget)
        let canvas = try Canvas(size: display)
        var peak = 0
        for viewportTop in stride(from: 0, to: 60_000, by: 37) {
            textBlock.draw(into: canvas.pixmanImage, frame: PixelRect(size: display),
                           clip: PixelRect(size: display), viewportTop: viewportTop)
            textBlock.prepareAhead(viewportRows: display.height, limit: 2)
            peak = max(peak, textBlock.cachedBytes)
        }
        #expect(peak <= budget)
        #expect(peak > budget / 4)   // it does use the cache
        // Scrolling reuses pieces: each piece passed is rasterized once.
        let piecesPerChunk = (24 * 12 + textBlock.pieceRows - 1) / textBlock.pieceRows
        #expect(textBlock.rasterizedPieceCount <= (60_000 / (24 * 12) + 2) * piecesPerChunk)
    }

    @Test func budgetSmallerThanAChunkStillDrawsEverything() throws {
        let display = PixelSize(width: 120, height: 80)
        let lines = BarLines(count: 200, lineHeight: 40, columnWidth: 100)   // chunks of 960 rows
        let tiny = block(lines: lines, display: display, budget: 20_000)
        #expect(tiny.pieceRows < 24 * 40)
        let roomy = block(lines: lines, display: display)
        for viewportTop in [0, 955, 2000] {
            let small = try frame(of: tiny, display: display, viewportTop: viewportTop)
            let large = try frame(of: roomy, display: display, viewportTop: viewportTop)
            #expect(small.hasSamePixels(as: large))
            #expect(tiny.cachedBytes <= 20_000 + 120 * tiny.pieceRows * 4)
        }
    }

    @Test func togglingATransformRasterizesOnlyWhatIsVisible() throws {
        let display = PixelSize(width: 200, height: 100)
        let lines = BarLines(count: 2_000, lineHeight: 3, columnWidth: 180)  // 72-row chunks
        let textBlock = block(lines: lines, display: display, budget: 200 * 40 * 4 * 6)
        _ = try frame(of: textBlock, display: display, viewportTop: 1_000)
        while textBlock.prepareAhead(viewportRows: 100, limit: 4) > 0 {}
        let before = textBlock.rasterizedPieceCount
        textBlock.setTransform(TextTransform(mirror: true))
        #expect(textBlock.cachedBytes == 0)
        let mirrored = try frame(of: textBlock, display: display, viewportTop: 1_000)
        // 100 visible rows in 40-row pieces touch at most 4 pieces.
        #expect(textBlock.rasterizedPieceCount - before <= 4)
        textBlock.setTransform(.identity)
        let plain = try frame(of: textBlock, display: display, viewportTop: 1_000)
        #expect(mirrored.hasSamePixels(as: try TestDrawing.mirroredHorizontally(plain)))
    }

    @Test func clipLimitsWhatIsWritten() throws {
        let display = PixelSize(width: 100, height: 60)
        let lines = BarLines(count: 50, lineHeight: 6, columnWidth: 80)
        let textBlock = block(lines: lines, display: display)
        let canvas = try Canvas(size: display)
        canvas.fill(Color(rgb: 0x00ff00))
        textBlock.draw(into: canvas.pixmanImage, frame: PixelRect(size: display),
                       clip: PixelRect(x: 10, y: 10, width: 20, height: 20), viewportTop: 0)
        #expect(canvas.color(x: 5, y: 5) == Color(rgb: 0x00ff00))
        #expect(canvas.color(x: 40, y: 40) == Color(rgb: 0x00ff00))
        #expect(canvas.color(x: 10, y: 10) != Color(rgb: 0x00ff00))
    }
}
