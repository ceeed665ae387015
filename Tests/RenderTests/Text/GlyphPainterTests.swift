import CPixman
import Testing
@testable import Render

/// An XRGB8888 pixman image for the painter tests, released on deinit.
private final class TestImage {
    let handle: OpaquePointer
    let width: Int, height: Int

    init(width: Int, height: Int) throws {
        handle = try #require(pixman_image_create_bits(PIXMAN_x8r8g8b8, Int32(width), Int32(height), nil, 0))
        self.width = width
        self.height = height
    }

    deinit { pixman_image_unref(handle) }

    func pixel(_ x: Int, _ y: Int) -> UInt32 {
        let stride = Int(pixman_image_get_stride(handle)) / 4
        return pixman_image_get_data(handle)?[y * stride + x] ?? 0
    }

    /// Bounding box of pixels that are not black.
    func inkBounds() -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var box: (Int, Int, Int, Int)?
        for y in 0..<height {
            for x in 0..<width where pixel(x, y) & 0xFFFFFF != 0 {
                box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
            }
        }
        return box
    }

    func count(where predicate: (UInt32) -> Bool) -> Int {
        var n = 0
        for y in 0..<height { for x in 0..<width where predicate(pixel(x, y)) { n += 1 } }
        return n
    }
}

@Suite struct GlyphPainterTests {
    let fonts: FontLibrary

    init() throws { fonts = try FontLibrary() }

    @Test func drawsTextInsideTheLineBox() throws {
        let image = try TestImage(width: 400, height: 100)
        let layout = try TextLayout(text: "Hamburg", style: TextStyle(fontSize: 48), columnWidth: 400, fonts: fonts)
        let line = try #require(layout.line(at: 0))
        let painter = GlyphPainter(fonts: fonts)
        painter.draw(line: line, into: image.handle, originX: 10, originY: 20, color: (255, 255, 255))
        let box = try #require(image.inkBounds())
        #expect(box.minX >= 10 && box.minX < 20)
        #expect(box.maxX <= 10 + Int(line.width.rounded(.up)) + 2)
        #expect(box.minY >= 20 && box.maxY < 20 + Int(line.height))
        // White text: full-coverage pixels are pure white.
        #expect(image.count { $0 & 0xFFFFFF == 0xFFFFFF } > 100)
    }

    @Test func colourEmojiIsDrawnInColourAtTextSize() throws {
        let image = try TestImage(width: 200, height: 100)
        let layout = try TextLayout(text: "🍎", style: TextStyle(fontSize: 40), columnWidth: 200, fonts: fonts)
        let line = try #require(layout.line(at: 0))
        GlyphPainter(fonts: fonts).draw(line: line, into: image.handle, originX: 0, originY: 0, color: (255, 255, 255))
        let box = try #require(image.inkBounds())
        #expect(box.maxX - box.minX > 25 && box.maxX - box.minX < 60)
        // A red apple: pixels with much more red than green, which white text cannot give.
        let reddish = image.count { pixel in
            let r = (pixel >> 16) & 0xFF, g = (pixel >> 8) & 0xFF
            return r > 150 && g < 90
        }
        #expect(reddish > 50)
    }
}

extension GlyphPainterTests {
    @Test func glyphsFromNowhereDrawNothingInsteadOfCrashing() throws {
        let image = try TestImage(width: 100, height: 100)
        let bogus = LaidOutLine(y: 0, height: 50, baseline: 40, width: 10,
                                glyphs: [PositionedGlyph(typeface: 999, glyphID: 5, x: 10, yOffset: 0),
                                         PositionedGlyph(typeface: 0, glyphID: 9_999_999, x: 20, yOffset: 0)],
                                firstWordIndex: 0, isRTL: false, textRange: 0..<0, wordStartsBefore: 0,
                                wordStartsThrough: 0)
        _ = try fonts.primaryTypeface(for: TextStyle())
        GlyphPainter(fonts: fonts).draw(line: bogus, into: image.handle, originX: 0, originY: 0, color: (255, 255, 255))
        #expect(image.inkBounds() == nil)
    }
}
