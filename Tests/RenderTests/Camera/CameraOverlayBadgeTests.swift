import Testing
@testable import Render

@Suite struct CameraOverlayBadgeTests {
    @Test func blendsUprightOverThePreviewInsideItsRectangleOnly() throws {
        let badge = CameraOverlayBadge(side: 40)
        var out = TestXRGBBuffer(width: 64, height: 64)
        for index in out.pixels.indices { out.pixels[index] = TestRGB.gray.xrgb }
        let (width, height, bytesPerRow) = (out.width, out.height, out.bytesPerRow)
        try out.pixels.withUnsafeMutableBytes { raw in
            let region = try XRGBRegion(base: raw.baseAddress!, bytesPerRow: bytesPerRow, width: width, height: height)
            badge.blend(onto: region, x: 12, y: 12)
            // Half off the edge: clipped, not a crash.
            badge.blend(onto: region, x: 50, y: -20)
        }
        #expect(out.color(32, 32) == TestRGB(r: 28, g: 28, b: 30), "letter area is dark")
        #expect(out.color(12 + 20, 12 + 1) == .white, "border is white")
        #expect(out.color(12 + 5, 12 + 20).isClose(to: TestRGB(r: 255, g: 204, b: 0), tolerance: 1), "badge body is yellow")
        #expect(out.color(12, 12) == .gray, "rounded corner leaves the preview visible")
        #expect(out.color(5, 5) == .gray, "outside the badge untouched")
        #expect(out.pixel(63, 0) != TestRGB.gray.xrgb, "clipped badge still drawn at the edge")
    }
}
