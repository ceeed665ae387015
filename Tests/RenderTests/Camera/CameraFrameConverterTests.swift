import Testing
@testable import Render

/// Four vertical bars, 4 px each, in a frame `width` wide: red, green, blue, white.
/// The order is asymmetric, so a mirror shows as the bars reversed.
private let bars: [TestRGB] = [.red, .green, .blue, .white]
private func barPattern(width: Int) -> (Int, Int) -> TestRGB {
    { x, _ in bars[min(bars.count - 1, x * bars.count / width)] }
}

private let yuvFormats: [CameraPixelFormat] = [.yuyv, .uyvy, .nv12, .i420]
/// libyuv's fixed-point BT.601 differs from the textbook by a few levels at saturated
/// colours; 4 of 255 is well under anything a viewer could see.
private let tolerance = 4

@Suite struct CameraFrameConverterTests {
    @Test(arguments: CameraPixelFormat.allCases)
    func convertsBarsInOrder(format: CameraPixelFormat) throws {
        let frame = SyntheticCameraFrame(format: format, width: 16, height: 8, color: barPattern(width: 16))
        var out = TestXRGBBuffer(width: 16, height: 8)
        let fit = try out.draw(frame, mirrored: false)
        #expect(fit == PixelRect(x: 0, y: 0, width: 16, height: 8))
        for y in 0..<8 {
            for x in 0..<16 {
                let expected = bars[x / 4]
                #expect(out.color(x, y).isClose(to: expected, tolerance: tolerance), "\(format) at \(x),\(y): \(out.color(x, y)) vs \(expected)")
                #expect(out.pixel(x, y) >> 24 == 0xFF, "alpha/x byte set opaque at \(x),\(y)")
            }
        }
    }

    @Test(arguments: CameraPixelFormat.allCases)
    func mirroredIsTheHorizontalFlipOfPlain(format: CameraPixelFormat) throws {
        // 20 rows: more than one conversion strip, and a short last strip.
        let frame = SyntheticCameraFrame(format: format, width: 16, height: 20) { x, y in
            y < 10 ? bars[x / 4] : bars[3 - (x / 4 + 1) % 4]
        }
        var plain = TestXRGBBuffer(width: 16, height: 20)
        var mirrored = TestXRGBBuffer(width: 16, height: 20)
        _ = try plain.draw(frame, mirrored: false)
        _ = try mirrored.draw(frame, mirrored: true)
        let expected = plain.flippedHorizontally()
        let same = mirrored.pixels == expected.pixels
        #expect(same, "\(format): \(same ? "" : mirrored.writeFailure(name: "mirror-\(format)", expected: expected))")
        // And the bars really read reversed: white first, red last.
        #expect(mirrored.color(0, 0).isClose(to: .white, tolerance: tolerance))
        #expect(mirrored.color(15, 0).isClose(to: .red, tolerance: tolerance))
    }

    @Test(arguments: yuvFormats)
    func letterboxesAWideFrameInABlackBarsAndKeepsTheAspect(format: CameraPixelFormat) throws {
        let frame = SyntheticCameraFrame(format: format, width: 16, height: 8, color: barPattern(width: 16))
        var out = TestXRGBBuffer(width: 32, height: 32)
        let fit = try out.draw(frame, mirrored: true)
        #expect(fit == PixelRect(x: 0, y: 8, width: 32, height: 16))
        for x in 0..<32 {
            for y in Array(0..<8) + Array(24..<32) {
                #expect(out.pixel(x, y) == CameraFrameConverter.letterboxColor, "bar at \(x),\(y)")
            }
        }
        // Scaled 2x: bars are 8 px wide; their centres keep the colour, reversed.
        for (index, expected) in bars.reversed().enumerated() {
            let x = index * 8 + 4
            #expect(out.color(x, 16).isClose(to: expected, tolerance: tolerance), "\(format) bar \(index): \(out.color(x, 16))")
        }
    }

    @Test func pillarboxesANarrowFrame() throws {
        let frame = SyntheticCameraFrame(format: .yuyv, width: 16, height: 8, color: barPattern(width: 16))
        var out = TestXRGBBuffer(width: 40, height: 16)
        let fit = try out.draw(frame, mirrored: false)
        #expect(fit == PixelRect(x: 4, y: 0, width: 32, height: 16))
        for y in 0..<16 {
            for x in Array(0..<4) + Array(36..<40) {
                #expect(out.pixel(x, y) == CameraFrameConverter.letterboxColor, "bar at \(x),\(y)")
            }
        }
        #expect(out.color(4 + 4, 8).isClose(to: .red, tolerance: tolerance))
        #expect(out.color(4 + 28, 8).isClose(to: .white, tolerance: tolerance))
    }

    @Test(arguments: [CameraPixelFormat.nv12, .xrgb])
    func shrinksIntoAThumbnail(format: CameraPixelFormat) throws {
        let frame = SyntheticCameraFrame(format: format, width: 64, height: 32, color: barPattern(width: 64))
        var plain = TestXRGBBuffer(width: 16, height: 16)
        var mirrored = TestXRGBBuffer(width: 16, height: 16)
        let fit = try plain.draw(frame, mirrored: false)
        _ = try mirrored.draw(frame, mirrored: true)
        #expect(fit == PixelRect(x: 0, y: 4, width: 16, height: 8))
        for (index, expected) in bars.enumerated() {
            #expect(plain.color(index * 4 + 2, 8).isClose(to: expected, tolerance: tolerance))
            #expect(mirrored.color(13 - index * 4, 8).isClose(to: expected, tolerance: tolerance))
        }
        #expect(plain.pixel(5, 0) == CameraFrameConverter.letterboxColor)
    }

    @Test func writesOnlyInsideTheRegionOfAWiderBuffer() throws {
        let frame = SyntheticCameraFrame(format: .i420, width: 16, height: 8, padding: 8, color: barPattern(width: 16))
        var out = TestXRGBBuffer(width: 16, height: 16, extraPixelsPerRow: 5)
        _ = try out.draw(frame, mirrored: true)
        let rowPixels = out.bytesPerRow / 4
        for y in 0..<16 {
            for x in 16..<rowPixels { #expect(out.pixels[y * rowPixels + x] == TestXRGBBuffer.untouched) }
        }
        #expect(out.pixel(0, 0) == CameraFrameConverter.letterboxColor)
        #expect(out.color(0, 8).isClose(to: .white, tolerance: tolerance))
    }

    @Test func reusesOneConverterAcrossSizes() throws {
        let converter = CameraFrameConverter()
        let big = SyntheticCameraFrame(format: .yuyv, width: 64, height: 32, color: barPattern(width: 64))
        let small = SyntheticCameraFrame(format: .yuyv, width: 16, height: 8, color: barPattern(width: 16))
        for frame in [small, big, small] {
            var out = TestXRGBBuffer(width: 32, height: 16)
            _ = try out.draw(frame, mirrored: true, converter: converter)
            #expect(out.color(1, 8).isClose(to: .white, tolerance: tolerance))
            #expect(out.color(30, 8).isClose(to: .red, tolerance: tolerance))
        }
    }

    @Test func rejectsATruncatedBuffer() throws {
        let bytes = [UInt8](repeating: 0, count: 16 * 2 * 8 - 1)
        bytes.withUnsafeBytes { raw in
            #expect(throws: CameraFrameError.bufferTooSmall(format: .yuyv, byteCount: 255, needed: 256)) {
                try CameraImage(format: .yuyv, width: 16, height: 8, bytesPerLine: 32, base: raw.baseAddress!, byteCount: raw.count)
            }
            #expect(throws: CameraFrameError.strideTooSmall(format: .yuyv, bytesPerLine: 30, needed: 32)) {
                try CameraImage(format: .yuyv, width: 16, height: 8, bytesPerLine: 30, base: raw.baseAddress!, byteCount: raw.count)
            }
            #expect(throws: CameraFrameError.badSize(width: 0, height: 8)) {
                try CameraImage(format: .yuyv, width: 0, height: 8, bytesPerLine: 32, base: raw.baseAddress!, byteCount: raw.count)
            }
        }
        let message = CameraFrameError.bufferTooSmall(format: .nv12, byteCount: 10, needed: 20).description
        #expect(message.contains("NV12") && message.contains("10") && message.contains("20"))
    }

    @Test func rejectsADestinationNarrowerThanItsStride() {
        var pixels = [UInt32](repeating: 0, count: 16)
        _ = pixels.withUnsafeMutableBytes { raw in
            #expect(throws: CameraFrameError.badDestination(width: 4, height: 4, bytesPerRow: 12)) {
                try XRGBRegion(base: raw.baseAddress!, bytesPerRow: 12, width: 4, height: 4)
            }
        }
    }
}

@Suite struct AspectFitTests {
    @Test func sameAspectFillsTheTargetExactly() {
        #expect(PixelRect.fit(sourceWidth: 640, sourceHeight: 360, targetWidth: 1920, targetHeight: 1080)
            == PixelRect(x: 0, y: 0, width: 1920, height: 1080))
    }

    @Test func fourByThreeIsPillarboxedOnSixteenByNine() {
        #expect(PixelRect.fit(sourceWidth: 640, sourceHeight: 480, targetWidth: 1920, targetHeight: 1080)
            == PixelRect(x: 240, y: 0, width: 1440, height: 1080))
    }

    @Test func wideFrameOnAPortraitDisplayIsLetterboxed() {
        let fit = PixelRect.fit(sourceWidth: 1920, sourceHeight: 1080, targetWidth: 1080, targetHeight: 1920)
        #expect(fit == PixelRect(x: 0, y: 656, width: 1080, height: 608))
        #expect(fit.bars(targetWidth: 1080, targetHeight: 1920).map(\.height) == [656, 656])
    }

    @Test func fourccMatchesV4L2() {
        #expect(CameraPixelFormat.yuyv.fourcc == 0x5659_5559)
        #expect(CameraPixelFormat(fourcc: 0x3231_564E) == .nv12)
        #expect(fourccText(0x4750_4A4D) == "MJPG")
    }
}
