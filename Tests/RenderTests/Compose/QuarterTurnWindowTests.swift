@testable import Render
import Testing

/// Quarter turns while scrolling are copied from a window of the viewport kept in
/// display orientation; every such frame must equal the frame drawn straight from
/// the pieces (a fresh block draws its first frame that way).
@Suite struct QuarterTurnWindowTests {
    static let quarterTurns = TextTransform.allCombinations.filter(\.swapsAxes)

    let display = PixelSize(width: 240, height: 96)

    /// The text's colours: in colour a window keeps XRGB8888 pixels, in gray (as white
    /// on black) a byte a pixel.
    struct Scheme: Sendable, CustomTestStringConvertible {
        let ink: Color
        let background: Color
        let name: String
        var highlight: ReadingHighlight { ReadingHighlight(rows: 80..<89, color: ink.withAlpha(28)) }
        var windowBytesPerPixel: Int { ink.isGray && background.isGray ? 1 : 4 }
        var testDescription: String { name }

        static let colour = Scheme(ink: Color(rgb: 0xf0e0d0), background: Color(rgb: 0x102030), name: "colour")
        static let gray = Scheme(ink: Color(rgb: 0xf0f0f0), background: Color(rgb: 0x101010), name: "gray")
    }
    static let schemes = [Scheme.colour, .gray]

    func block(_ lines: BarLines, _ transform: TextTransform, _ scheme: Scheme = .colour,
               budget: Int = ChunkedTextBlock.defaultCacheBudgetBytes, rowPhases: Int = 1) -> ChunkedTextBlock {
        ChunkedTextBlock(lines: lines, columnWidth: display.height, textInset: 10, textColor: scheme.ink,
                         background: scheme.background, transform: transform, cacheBudgetBytes: budget,
                         rowPhases: rowPhases)
    }

    /// Draws `block` into a canvas larger than the display, the frame placed at
    /// (7, 5), through `clips` (as the compositor does around the marker's arrows).
    func draw(_ block: ChunkedTextBlock, viewportTop: Int, rowFraction: Int = 0, clips: [PixelRect]? = nil,
              _ scheme: Scheme = .colour) throws -> Canvas {
        let canvas = try Canvas(width: display.width + 20, height: display.height + 12)
        canvas.fill(Color(rgb: 0xff00ff))   // must be fully overwritten inside the frame
        let frame = PixelRect(x: 7, y: 5, width: display.width, height: display.height)
        for clip in clips ?? [frame] {
            block.draw(into: canvas.pixmanImage, frame: frame, clip: clip, viewportTop: viewportTop,
                       rowFraction: rowFraction, highlight: scheme.highlight)
        }
        return canvas
    }

    /// Scrolling down by 3 px a frame, back up by 2, a jump, a pause, a big step,
    /// past the start and past the end of the text.
    static let viewportTops: [Int] = {
        var tops = Array(stride(from: 100, to: 400, by: 3))
        tops += stride(from: 397, to: 250, by: -2)
        tops += [1_400, 1_400] + Array(stride(from: 1_405, to: 1_600, by: 5))
        tops += [1_632, 1_664, 1_700]
        tops += Array(stride(from: -60, to: 30, by: 4))
        tops += Array(stride(from: 3_450, to: 3_700, by: 7))
        return tops
    }()

    @Test(arguments: quarterTurns, schemes)
    func scrollingFramesEqualFramesDrawnFromThePieces(transform: TextTransform, scheme: Scheme) throws {
        let lines = BarLines(count: 400, lineHeight: 9, columnWidth: display.height - 20)
        let scrolling = block(lines, transform, scheme)
        var mismatches: [Int] = []
        for top in Self.viewportTops {
            let drawn = try draw(scrolling, viewportTop: top, scheme)
            let expected = try draw(block(lines, transform, scheme), viewportTop: top, scheme)
            if TestDrawing.differingPixels(drawn, expected) != 0 { mismatches.append(top) }
        }
        #expect(mismatches.isEmpty, "\(transform) differs at viewport tops \(mismatches)")
        // The window was in use: it is counted in the cache.
        #expect(scrolling.quarterTurnWindowBytes >= (display.width + 64) * display.height * scheme.windowBytesPerPixel)
        #expect(scrolling.quarterTurnWindowBytes < (display.width + 64) * display.height * scheme.windowBytesPerPixel * 2)
    }

    /// At row phases (issue 38): the text scrolls by 7/16 px a frame, then by 13/16,
    /// then jumps; each phase is copied from its own window, and every frame equals
    /// the same place at the same phase drawn straight from the pieces.
    @Test(arguments: quarterTurns, schemes)
    func scrollingAtRowPhasesEqualsFramesDrawnFromThePieces(transform: TextTransform, scheme: Scheme) throws {
        let lines = BarLines(count: 400, lineHeight: 9, columnWidth: display.height - 20)
        let scrolling = block(lines, transform, scheme, rowPhases: 16)
        var sixteenths = 100 * 16
        var positions: [Int] = []
        for _ in 0..<90 { sixteenths += 7; positions.append(sixteenths) }
        for _ in 0..<40 { sixteenths += 13; positions.append(sixteenths) }
        positions += [2_000 * 16 + 3, 2_000 * 16 + 5] + (1...40).map { 2_000 * 16 + 5 - 6 * $0 }
        var mismatches: [String] = []
        for position in positions {
            let top = position >> 4, phase = position & 15
            let drawn = try draw(scrolling, viewportTop: top, rowFraction: phase * 3, scheme)
            let expected = try draw(block(lines, transform, scheme, rowPhases: 16), viewportTop: top,
                                    rowFraction: phase * 3, scheme)
            if TestDrawing.differingPixels(drawn, expected) != 0 { mismatches.append("\(top)+\(phase)/16") }
        }
        #expect(mismatches.isEmpty, "\(transform) differs at \(mismatches)")
        #expect(scrolling.rowPhasesDrawn == 16)
        // Every phase had its window, each counted in the cache.
        #expect(scrolling.quarterTurnWindowBytes
                >= 16 * (display.width + 64) * display.height * scheme.windowBytesPerPixel)
    }

    /// The phases are really drawn: a frame a sixteenth of a pixel further on differs.
    @Test func aRowPhaseMovesTheTurnedText() throws {
        let lines = BarLines(count: 400, lineHeight: 9, columnWidth: display.height - 20)
        let transform = TextTransform(rotation: .quarter)
        let scrolling = block(lines, transform, rowPhases: 16)
        var previous: Canvas?
        for position in stride(from: 1_600, to: 1_680, by: 1) {
            let drawn = try draw(scrolling, viewportTop: position >> 4, rowFraction: (position & 15) * 3)
            if let previous { #expect(TestDrawing.differingPixels(drawn, previous) > 0, "no change at \(position)/16") }
            previous = drawn
        }
    }

    @Test(arguments: quarterTurns, schemes)
    func clippedAreasTogetherMakeTheWholeFrame(transform: TextTransform, scheme: Scheme) throws {
        let lines = BarLines(count: 400, lineHeight: 9, columnWidth: display.height - 20)
        let scrolling = block(lines, transform, scheme)
        // Around two small holes, like the marker's arrows; the holes are drawn last.
        let holes = [PixelRect(x: 90, y: 5, width: 12, height: 8), PixelRect(x: 90, y: 93, width: 12, height: 8)]
        let frame = PixelRect(x: 7, y: 5, width: display.width, height: display.height)
        let clips = Self.subtract(holes, from: frame) + holes
        for top in stride(from: 500, to: 620, by: 3) {
            let drawn = try draw(scrolling, viewportTop: top, clips: clips, scheme)
            let expected = try draw(block(lines, transform, scheme), viewportTop: top, scheme)
            #expect(TestDrawing.differingPixels(drawn, expected) == 0, "\(transform) at \(top)")
        }
    }

    /// The band is blended in as each frame is copied, so a band of any colour (the
    /// green one here) leaves a window of gray levels gray.
    @Test(arguments: [TextTransform(rotation: .quarter), TextTransform(flip: true, rotation: .threeQuarters)], schemes)
    func changingOrDroppingTheBandWhileScrollingKeepsFramesExact(transform: TextTransform, scheme: Scheme) throws {
        let lines = BarLines(count: 400, lineHeight: 9, columnWidth: display.height - 20)
        let scrolling = block(lines, transform, scheme)
        let frame = PixelRect(x: 7, y: 5, width: display.width, height: display.height)
        let highlight = scheme.highlight
        let bands: [ReadingHighlight?] = [
            highlight, ReadingHighlight(rows: 150..<190, color: Color(rgb: 0x00ff80).withAlpha(40)), nil,
            ReadingHighlight(rows: 0..<12, color: highlight.color), highlight,
        ]
        var top = 300
        for band in bands {
            for _ in 0..<25 {
                top += 3
                let drawn = try Canvas(width: display.width + 20, height: display.height + 12)
                let expected = try Canvas(width: display.width + 20, height: display.height + 12)
                scrolling.draw(into: drawn.pixmanImage, frame: frame, clip: frame, viewportTop: top, highlight: band)
                block(lines, transform, scheme).draw(into: expected.pixmanImage, frame: frame, clip: frame,
                                                     viewportTop: top, highlight: band)
                #expect(TestDrawing.differingPixels(drawn, expected) == 0, "\(transform) at \(top), band \(String(describing: band))")
            }
        }
        let window = (display.width + 64) * display.height * scheme.windowBytesPerPixel
        #expect(scrolling.quarterTurnWindowCount > 0
                && scrolling.quarterTurnWindowBytes == window * scrolling.quarterTurnWindowCount,
                "the windows keep their pixels as they were made (\(scheme.name))")
    }

    /// Gray text with one line in colour that the layout does not know of (as an
    /// emoji is): the gray windows cannot hold it, so when it scrolls in they are made
    /// again in colour, and every frame still equals the frame drawn from the pieces.
    @Test(arguments: [TextTransform(rotation: .quarter), TextTransform(mirror: true, rotation: .threeQuarters)])
    func aLineInColourTurnsGrayWindowsToColour(transform: TextTransform) throws {
        let lines = BarLines(count: 400, lineHeight: 9, columnWidth: display.height - 20)
        lines.colouredLines = [300]
        lines.hidesColour = true
        let scrolling = block(lines, transform, .gray, rowPhases: 4)
        var mismatches: [String] = []
        let window = (display.width + 64) * display.height
        var grayWhileAbove = true
        for frame in 0..<160 {
            let position = 2_000 * 48 + frame * 130   // 2 and 34/48 px a frame: line 300 comes in
            let top = position / 48, fraction = position % 48
            let drawn = try draw(scrolling, viewportTop: top, rowFraction: fraction, .gray)
            let expected = try draw(block(lines, transform, .gray, rowPhases: 4), viewportTop: top,
                                    rowFraction: fraction, .gray)
            if TestDrawing.differingPixels(drawn, expected) != 0 { mismatches.append("\(top)+\(fraction)/48") }
            // Before the line's piece reaches a window (its chunk, lines 288-311, starts
            // at row 2,592; a window holds its rows and the runway).
            if frame > 2 && top + display.width + QuarterTurnWindow.slack < 2_592 {
                grayWhileAbove = grayWhileAbove && scrolling.quarterTurnWindowCount > 0
                    && scrolling.quarterTurnWindowBytes < 2 * window * scrolling.quarterTurnWindowCount
            }
        }
        #expect(mismatches.isEmpty, "\(transform) differs at \(mismatches)")
        #expect(grayWhileAbove, "the windows were gray before the line in colour")
        #expect(scrolling.quarterTurnWindowCount > 0
                && scrolling.quarterTurnWindowBytes >= 4 * window * scrolling.quarterTurnWindowCount,
                "the windows are in colour after it")
    }

    /// A scroll's damage: each frame copies only narrow areas (a column per line of
    /// text across the rows its ink reaches), all in one call, and the display rows
    /// outside them (the text's margins) are left alone for far longer than the
    /// window is wide. Every area drawn, and the whole frame drawn afterwards, equals
    /// a fresh block's frame: the rows left out give back their old band when next
    /// copied, even once those text rows have scrolled out of them.
    @Test(arguments: quarterTurns, schemes)
    func narrowAreasLeftAloneForLongStillCopyExact(transform: TextTransform, scheme: Scheme) throws {
        let lines = BarLines(count: 400, lineHeight: 9, columnWidth: display.height - 20)
        let scrolling = block(lines, transform, scheme)
        let frame = PixelRect(x: 7, y: 5, width: display.width, height: display.height)
        // Three columns over the middle rows; the rows above and below stay out.
        let areas = [30, 100, 170].map { PixelRect(x: frame.x + $0, y: frame.y + 20, width: 25, height: 56) }
        var top = 200
        for step in [3, 3, 2, 5, 3] {
            for _ in 0..<60 {
                top += step
                let drawn = try Canvas(width: display.width + 20, height: display.height + 12)
                scrolling.draw(into: drawn.pixmanImage, frame: frame, clips: areas, viewportTop: top,
                               highlight: scheme.highlight)
                let expected = try draw(block(lines, transform, scheme), viewportTop: top, scheme)
                for area in areas {
                    let differing = TestDrawing.differingPixels(try TestDrawing.crop(drawn, area),
                                                                try TestDrawing.crop(expected, area))
                    #expect(differing == 0, "\(transform) at \(top), area \(area)")
                }
            }
            let whole = try draw(scrolling, viewportTop: top, scheme)
            #expect(TestDrawing.differingPixels(whole, try draw(block(lines, transform, scheme), viewportTop: top,
                                                                scheme)) == 0,
                    "\(transform): the whole frame at \(top)")
        }
    }

    /// A frame of 16 MiB or more (4K) is copied from its window with streaming
    /// stores; scrolling through it, with the band, equals the frames drawn from the
    /// pieces as the small frames above do.
    @Test(arguments: schemes)
    func aFrameCopiedWithStreamingStoresEqualsTheFrameDrawnFromThePieces(scheme: Scheme) throws {
        let large = PixelSize(width: 4_096, height: 1_024)
        #expect(large.width * large.height * 4 >= 16 << 20)
        let transform = TextTransform(rotation: .quarter)
        let lines = BarLines(count: 2_000, lineHeight: 40, columnWidth: large.height - 20)
        func block() -> ChunkedTextBlock {
            ChunkedTextBlock(lines: lines, columnWidth: large.height, textInset: 10, textColor: scheme.ink,
                             background: scheme.background, transform: transform)
        }
        let scrolling = block()
        let frame = PixelRect(size: large)
        let band = ReadingHighlight(rows: 1_800..<1_900, color: scheme.highlight.color)
        for top in stride(from: 3_000, to: 3_030, by: 3) {
            let drawn = try Canvas(size: large), expected = try Canvas(size: large)
            scrolling.draw(into: drawn.pixmanImage, frame: frame, clip: frame, viewportTop: top, highlight: band)
            block().draw(into: expected.pixmanImage, frame: frame, clip: frame, viewportTop: top, highlight: band)
            #expect(TestDrawing.differingPixels(drawn, expected) == 0, "at \(top)")
        }
        // The window was in use.
        #expect(scrolling.quarterTurnWindowBytes >= (large.width + 64) * large.height * scheme.windowBytesPerPixel)
    }

    /// The idle warm-up makes a quarter turn's windows, one a turn, before the text
    /// scrolls: no scrolling frame then makes one (new memory the kernel zeroes page by
    /// page), and the frames copied from them still equal frames drawn from the pieces.
    @Test(arguments: [TextTransform(rotation: .quarter), TextTransform(mirror: true, rotation: .threeQuarters)], schemes)
    func theWarmUpMakesTheWindowsBeforeTheTextScrolls(transform: TextTransform, scheme: Scheme) throws {
        let lines = BarLines(count: 400, lineHeight: 9, columnWidth: display.height - 20)
        let warmed = block(lines, transform, scheme, rowPhases: 4)
        _ = try draw(warmed, viewportTop: 100, scheme)   // the still frame before play
        #expect(warmed.quarterTurnWindowCount == 0)
        var turns = 0
        while warmed.prepareAhead(viewportRows: display.width, limit: 2) > 0 { turns += 1 }
        #expect(warmed.quarterTurnWindowCount == 4, "after \(turns) turns")
        var mismatches: [String] = []
        for frame in 1...40 {
            let position = 100 * 48 + frame * 22   // 22/48 px a frame: each quarter-pixel phase in turn
            let top = position / 48, fraction = position % 48
            let drawn = try draw(warmed, viewportTop: top, rowFraction: fraction, scheme)
            let expected = try draw(block(lines, transform, scheme, rowPhases: 4), viewportTop: top,
                                    rowFraction: fraction, scheme)
            if TestDrawing.differingPixels(drawn, expected) != 0 { mismatches.append("\(top)+\(fraction)/48") }
            #expect(warmed.quarterTurnWindowCount == 4)
        }
        #expect(mismatches.isEmpty, "\(transform) differs at \(mismatches)")
    }

    @Test func aBudgetTooSmallForTheWindowStillDrawsEveryFrame() throws {
        let transform = TextTransform(rotation: .quarter)
        let lines = BarLines(count: 400, lineHeight: 9, columnWidth: display.height - 20)
        let small = block(lines, transform, budget: 60_000)
        for top in stride(from: 100, to: 160, by: 3) {
            let drawn = try draw(small, viewportTop: top)
            let expected = try draw(block(lines, transform), viewportTop: top)
            #expect(drawn.hasSamePixels(as: expected))
        }
        #expect(small.cachedBytes < (display.width + 64) * display.height * 4)
    }

    @Test func windowAndPiecesStayWithinTheBudget() throws {
        let transform = TextTransform(mirror: true, rotation: .threeQuarters)
        let lines = BarLines(count: 3_000, lineHeight: 9, columnWidth: display.height - 20)
        let budget = 300_000   // the window takes a third
        let scrolling = block(lines, transform, budget: budget)
        let stripBytes = 3 * Scheme.colour.highlight.rows.count * display.height * 4
        var peak = 0
        for top in stride(from: 0, to: 20_000, by: 9) {
            _ = try draw(scrolling, viewportTop: top)
            scrolling.prepareAhead(viewportRows: display.width, limit: 2)
            peak = max(peak, scrolling.cachedBytes)
        }
        #expect(peak <= budget + stripBytes)
        // Pieces are reused while scrolling: each chunk's pieces about once.
        let piecesPerChunk = (24 * 9 + scrolling.pieceRows - 1) / scrolling.pieceRows
        #expect(scrolling.rasterizedPieceCount <= (20_000 / (24 * 9) + 4) * piecesPerChunk)
    }

    static func subtract(_ holes: [PixelRect], from rect: PixelRect) -> [PixelRect] {
        var pieces = [rect]
        for hole in holes {
            pieces = pieces.flatMap { piece -> [PixelRect] in
                let cut = piece.intersection(hole)
                guard !cut.isEmpty else { return [piece] }
                return [PixelRect(x: piece.x, y: piece.y, width: piece.width, height: cut.y - piece.y),
                        PixelRect(x: piece.x, y: cut.maxY, width: piece.width, height: piece.maxY - cut.maxY),
                        PixelRect(x: piece.x, y: cut.y, width: cut.x - piece.x, height: cut.height),
                        PixelRect(x: cut.maxX, y: cut.y, width: piece.maxX - cut.maxX, height: cut.height)]
                    .filter { !$0.isEmpty }
            }
        }
        return pieces
    }
}
