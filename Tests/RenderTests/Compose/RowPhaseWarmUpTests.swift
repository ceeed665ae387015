import Render
import Testing

/// The scrolling text is drawn at fractions of a pixel from pieces cached per row
/// phase (issue 38). Idle time must prepare every phase a frame may choose, or a
/// scroll rasterizes the other fifteen in its frames; a block drawn only at whole rows
/// (the operator's copy) must not pay for phases at all.
@Suite struct RowPhaseWarmUpTests {
    let display = PixelSize(width: 200, height: 100)

    func block(rowPhases: Int, budget: Int = ChunkedTextBlock.defaultCacheBudgetBytes) -> ChunkedTextBlock {
        ChunkedTextBlock(lines: BarLines(count: 2_000, lineHeight: 3, columnWidth: 180), columnWidth: 200,
                         textInset: 10, textColor: Color(rgb: 0xf0e0d0), background: Color(rgb: 0x102030),
                         cacheBudgetBytes: budget, rowPhases: rowPhases)
    }

    func draw(_ block: ChunkedTextBlock, top: Int, sixteenths: Int, into canvas: Canvas) {
        block.draw(into: canvas.pixmanImage, frame: PixelRect(size: display), clip: PixelRect(size: display),
                   viewportTop: top, rowFraction: sixteenths * ChunkedTextBlock.rowFractions / 16)
    }

    @Test func idleTimePreparesEveryPhaseTheScrollLandsOn() throws {
        let textBlock = block(rowPhases: ChunkedTextBlock.rowPhases)
        let canvas = try Canvas(size: display)
        draw(textBlock, top: 1_000, sixteenths: 3, into: canvas)
        #expect(textBlock.rowPhasesDrawn == ChunkedTextBlock.rowPhases)
        while textBlock.prepareAhead(viewportRows: 100, limit: 8) > 0 {}
        let prepared = textBlock.rasterizedPieceCount
        // Eight pixels of scrolling by sixteenths: every phase, nothing rasterized in a frame.
        for step in 0..<(8 * 16) {
            draw(textBlock, top: 1_000 + step / 16, sixteenths: step % 16, into: canvas)
        }
        #expect(textBlock.rasterizedPieceCount == prepared)
    }

    @Test func aBudgetForFewerScreensPreparesOnlyThePhasesItDraws() throws {
        // Room for about three screens: two phases (0 and half a pixel).
        let textBlock = block(rowPhases: ChunkedTextBlock.rowPhases, budget: 200 * 100 * 4 * 4)
        let canvas = try Canvas(size: display)
        draw(textBlock, top: 1_000, sixteenths: 0, into: canvas)
        #expect(textBlock.rowPhasesDrawn == 2)
        while textBlock.prepareAhead(viewportRows: 100, limit: 8) > 0 {}
        let prepared = textBlock.rasterizedPieceCount
        for fraction in 0..<ChunkedTextBlock.rowFractions {
            textBlock.draw(into: canvas.pixmanImage, frame: PixelRect(size: display), clip: PixelRect(size: display),
                           viewportTop: 1_000, rowFraction: fraction)
        }
        #expect(textBlock.rasterizedPieceCount == prepared)
    }

    @Test func aBlockWithoutPhasesKeepsWholeRowsAndLongPieces() throws {
        let whole = block(rowPhases: 1), phased = block(rowPhases: ChunkedTextBlock.rowPhases)
        #expect(whole.pieceRows >= phased.pieceRows * ChunkedTextBlock.rowPhases)
        let canvas = try Canvas(size: display)
        draw(whole, top: 1_000, sixteenths: 0, into: canvas)
        let drawn = whole.rasterizedPieceCount
        // Three sixteenths round to the same whole row: the same pieces.
        draw(whole, top: 1_000, sixteenths: 3, into: canvas)
        #expect(whole.rowPhasesDrawn == 1)
        #expect(whole.rasterizedPieceCount == drawn)
    }
}
