import Foundation
import Render
import Testing

@Suite struct CanvasTests {
    @Test func newCanvasIsBlackAndFillsWithOpaqueColour() throws {
        let canvas = try Canvas(width: 7, height: 5)
        #expect(canvas.color(x: 6, y: 4) == .black)
        canvas.fill(Color(rgb: 0x123456))
        #expect(canvas.color(x: 0, y: 0) == Color(rgb: 0x123456))
        #expect(canvas.color(x: 6, y: 4) == Color(rgb: 0x123456))
        #expect(canvas.pixels.count == 35)
    }

    @Test func rejectsUnusableSizes() {
        #expect(throws: ImageError.invalidSize(width: 0, height: 10)) { try Canvas(width: 0, height: 10) }
        #expect(throws: ImageError.invalidSize(width: 10, height: 40000)) {
            try Canvas(width: 10, height: 40000)
        }
    }

    @Test func pngRoundTripKeepsEveryPixel() throws {
        let canvas = try Canvas(width: 33, height: 17)
        for index in 0..<canvas.pixels.count { canvas.pixels[index] = UInt32(truncatingIfNeeded: index &* 2_654_435_761) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rig-canvas-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = canvas.pixels.map { $0 & 0x00ff_ffff }
        try canvas.writePNG(path: path)
        // Writing packs the pixels in place and must restore them.
        #expect(canvas.pixels.map { $0 & 0x00ff_ffff } == before)
        let back = try Canvas.readPNG(path: path)
        #expect(back.hasSamePixels(as: canvas))
        #expect(back.size == canvas.size)
    }

    @Test func missingPNGNamesThePath() {
        do {
            _ = try Canvas.readPNG(path: "/nonexistent/rig/x.png")
            Issue.record("read a missing file")
        } catch {
            #expect(error.description.contains("/nonexistent/rig/x.png"))
        }
    }

    @Test func unwritableFolderIsAnError() throws {
        let canvas = try Canvas(width: 2, height: 2)
        #expect(throws: ImageError.self) { try canvas.writePNG(path: "/nonexistent/rig/out.png") }
    }

    @Test func colourConversions() {
        let colour = Color(rgb: 0xa0b0c0)
        #expect(colour.xrgb == 0xffa0_b0c0)
        #expect(Color(xrgb: 0x00a0_b0c0) == colour)
        #expect(colour.description == "#a0b0c0")
        #expect(colour.withAlpha(10).isOpaque == false)
    }
}
