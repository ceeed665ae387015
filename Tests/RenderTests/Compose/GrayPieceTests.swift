import Testing
@testable import Render

/// Gray text pieces (white on black, the default) are kept one byte a pixel and drawn
/// back as exactly the pixels they were painted with, under every transform; a piece
/// with colour in it stays in colour.
@Suite struct GrayPieceTests {
    /// A canvas of every shade, in a pattern that shows a shifted or clipped copy.
    func shades(_ size: PixelSize) throws -> Canvas {
        let canvas = try Canvas(size: size)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let level = UInt32((x * 7 + y * 31) % 256)
                canvas.pixels[y * size.width + x] = 0xff00_0000 | level * 0x01_0101
            }
        }
        return canvas
    }

    @Test func aGrayCanvasKeepsEveryShadeAndDrawsItBackWhereAsked() throws {
        // 37 wide: the sixteen-at-a-time expansion and the pixels after it.
        let source = try shades(PixelSize(width: 37, height: 9))
        let gray = try #require(GrayCanvas.gray(of: source))
        #expect(gray.byteCount == 37 * 9)
        let magenta: UInt32 = 0xffff_00ff
        let target = try Canvas(size: PixelSize(width: 50, height: 12))
        target.pixels.update(repeating: magenta)
        // Part of it, placed so its right edge falls off the target.
        gray.copy(sourceRect: PixelRect(x: 2, y: 1, width: 33, height: 6), into: target.pixmanImage, x: 20, y: 4)
        for y in 0..<12 {
            for x in 0..<50 {
                let inside = (20..<50).contains(x) && (4..<10).contains(y)
                let expected = inside ? source.pixel(x: x - 20 + 2, y: y - 4 + 1) : magenta
                #expect(target.pixel(x: x, y: y) == expected, "(\(x), \(y))")
            }
        }
        // Whole rows on both sides: one run.
        let whole = try Canvas(size: source.size)
        gray.copy(sourceRect: PixelRect(size: source.size), into: whole.pixmanImage, x: 0, y: 0)
        #expect(whole.hasSamePixels(as: source))
    }

    @Test func oneColouredPixelKeepsAPieceInColour() throws {
        let source = try shades(PixelSize(width: 20, height: 4))
        source.pixels[45] = 0xff10_2030
        #expect(GrayCanvas.gray(of: source) == nil)
    }

    func block(ink: Color, background: Color, transform: TextTransform, display: PixelSize,
               lines: BarLines) -> ChunkedTextBlock {
        ChunkedTextBlock(lines: lines, columnWidth: transform.textSize(forDisplay: display).width, textInset: 10,
                         textColor: ink, background: background, transform: transform, rowPhases: 16)
    }

    func frame(of block: ChunkedTextBlock, display: PixelSize, top: Int, fraction: Int) throws -> Canvas {
        let canvas = try Canvas(size: display)
        canvas.fill(Color(rgb: 0xff00ff))   // must be fully overwritten
        block.draw(into: canvas.pixmanImage, frame: PixelRect(size: display), clip: PixelRect(size: display),
                   viewportTop: top, rowFraction: fraction)
        return canvas
    }

    /// The same frame from a gray block and from one whose text is a hair off gray (so
    /// its pieces stay in colour): the same pixels, but for that hair, at a quarter
    /// of the memory for the pieces.
    @Test(arguments: [TextTransform.identity, TextTransform(mirror: true, flip: true),
                      TextTransform(rotation: .quarter), TextTransform(mirror: true, rotation: .threeQuarters)])
    func grayTextIsHeldAByteAPixelAndDrawsTheSamePixels(transform: TextTransform) throws {
        let display = PixelSize(width: 200, height: 120)
        let viewport = transform.textSize(forDisplay: display)
        let white = Color(rgb: 0xe0e0e0), black = Color(rgb: 0x101010)
        let gray = block(ink: white, background: black, transform: transform, display: display,
                         lines: BarLines(count: 200, lineHeight: 9, columnWidth: viewport.width - 20))
        let colour = block(ink: Color(rgb: 0xe0e0e1), background: black, transform: transform, display: display,
                           lines: BarLines(count: 200, lineHeight: 9, columnWidth: viewport.width - 20))
        #expect(gray.pieceBytesPerPixel == 1 && colour.pieceBytesPerPixel == 4)
        for (top, fraction) in [(300, 0), (301, 24), (-20, 12)] {
            let fromGray = try frame(of: gray, display: display, top: top, fraction: fraction)
            let fromColour = try frame(of: colour, display: display, top: top, fraction: fraction)
            var differing = 0
            for index in 0..<fromGray.pixels.count {
                let a = Color(xrgb: fromGray.pixels[index]), b = Color(xrgb: fromColour.pixels[index])
                let hair = a.red == b.red && a.green == b.green && (a.blue == b.blue || a.blue &+ 1 == b.blue)
                if !hair { differing += 1 }
            }
            #expect(differing == 0, "\(transform) at \(top) + \(fraction)/48")
            // A frame with ink: the bars drew something.
            #expect(fromGray.pixels.contains { Color(xrgb: $0) == white }, "\(transform) at \(top)")
        }
        // The same pieces at a quarter of the bytes (a quarter turn's windows stay in colour).
        #expect(gray.pieceBytes > 0 && gray.pieceBytes * 4 == colour.pieceBytes,
                "gray \(gray.pieceBytes) bytes, colour \(colour.pieceBytes)")
    }

    /// The block chooses each frame's phases for what its pieces take: a budget that
    /// holds four screens of colour pieces holds sixteen of gray ones; a frame with a
    /// line in a colour of its own in view (a direction) gets what colour affords, and
    /// the frames either side of it do not, whether drawn or asked for their damage.
    @Test func grayPiecesBuyFourTimesThePhases() throws {
        let display = PixelSize(width: 200, height: 100)
        let budget = 200 * 100 * 4 * 5   // four screens of colour pieces in four fifths
        let lines = BarLines(count: 400, lineHeight: 9, columnWidth: 180)
        lines.colouredLines = [150]   // rows 1,350-1,358, in the chunk of lines 144-167
        func block(ink: Color) -> ChunkedTextBlock {
            ChunkedTextBlock(lines: lines, columnWidth: 200, textInset: 10, textColor: ink, background: .black,
                             cacheBudgetBytes: budget, rowPhases: 16)
        }
        func phasesDrawn(_ block: ChunkedTextBlock, top: Int) throws -> Int {
            _ = try frame(of: block, display: display, top: top, fraction: 5)
            return block.rowPhasesDrawn
        }
        let white = block(ink: .white)
        #expect(try phasesDrawn(white, top: 500) == 16)
        #expect(try phasesDrawn(white, top: 1_300) == 4)
        #expect(try phasesDrawn(white, top: 2_000) == 16)
        #expect(try phasesDrawn(block(ink: Color(rgb: 0xffff00)), top: 500) == 4)
        // A frame with only gray lines in view (sixteenths: 5/48 rounds to 6/48), then
        // one with the direction's chunk in view (quarters: to 0/48): drawing only the
        // damage between them over the first gives the second, so the damage is
        // found at the phases each was drawn at.
        let screen = PixelRect(size: display)
        _ = try frame(of: white, display: display, top: 1_250, fraction: 5)   // its pieces, so its ink is known
        let buffer = try frame(of: white, display: display, top: 1_150, fraction: 5)
        #expect(white.rowPhasesDrawn == 16)
        let damage = try #require(white.changedArea(frame: screen, from: 1_150, at: 5, to: 1_250, at: 5))
        white.draw(into: buffer.pixmanImage, frame: screen, clips: damage, viewportTop: 1_250, rowFraction: 5)
        #expect(white.rowPhasesDrawn == 4)
        let expected = try frame(of: block(ink: .white), display: display, top: 1_250, fraction: 5)
        #expect(TestDrawing.differingPixels(buffer, expected) == 0)
    }
}
