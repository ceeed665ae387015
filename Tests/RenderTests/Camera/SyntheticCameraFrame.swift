import Foundation
@testable import Render

/// An 8-bit RGB colour for building test frames and checking converted pixels.
struct TestRGB: Equatable, CustomStringConvertible {
    var r: Int, g: Int, b: Int
    var description: String { "rgb(\(r),\(g),\(b))" }

    static let red = TestRGB(r: 255, g: 0, b: 0)
    static let green = TestRGB(r: 0, g: 255, b: 0)
    static let blue = TestRGB(r: 0, g: 0, b: 255)
    static let white = TestRGB(r: 255, g: 255, b: 255)
    static let black = TestRGB(r: 0, g: 0, b: 0)
    static let gray = TestRGB(r: 128, g: 128, b: 128)

    init(r: Int, g: Int, b: Int) { self.r = r; self.g = g; self.b = b }
    init(xrgb: UInt32) {
        r = Int((xrgb >> 16) & 0xFF); g = Int((xrgb >> 8) & 0xFF); b = Int(xrgb & 0xFF)
    }

    var xrgb: UInt32 { 0xFF00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b) }

    /// BT.601 limited range, the matrix of webcams and of libyuv's default converters;
    /// written out here so the test checks libyuv against the textbook, not itself.
    var yuv: (y: UInt8, u: UInt8, v: UInt8) {
        let (rf, gf, bf) = (Double(r) / 255, Double(g) / 255, Double(b) / 255)
        let y = 16 + 65.481 * rf + 128.553 * gf + 24.966 * bf
        let u = 128 - 37.797 * rf - 74.203 * gf + 112.0 * bf
        let v = 128 + 112.0 * rf - 93.786 * gf - 18.214 * bf
        func byte(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }
        return (byte(y), byte(u), byte(v))
    }

    func isClose(to other: TestRGB, tolerance: Int) -> Bool {
        abs(r - other.r) <= tolerance && abs(g - other.g) <= tolerance && abs(b - other.b) <= tolerance
    }
}

/// A camera frame built in memory in one of the device layouts, from a colour per
/// pixel. Chroma is taken from the top-left pixel of each shared block, so patterns
/// aligned to 2x2 blocks convert exactly.
struct SyntheticCameraFrame {
    let format: CameraPixelFormat
    let width: Int
    let height: Int
    let bytesPerLine: Int
    var bytes: [UInt8]

    init(format: CameraPixelFormat, width: Int, height: Int, padding: Int = 0, color: (Int, Int) -> TestRGB) {
        self.format = format
        self.width = width
        self.height = height
        bytesPerLine = format.minimumBytesPerLine(width: width) + padding
        bytes = [UInt8](repeating: 0xEE, count: format.frameByteCount(bytesPerLine: bytesPerLine, height: height))
        let chromaRows = (height + 1) / 2
        for y in 0..<height {
            for x in 0..<width {
                let pixel = color(x, y)
                let yuv = pixel.yuv
                let block = color(x & ~1, y & ~1).yuv
                let rowBlock = color(x & ~1, y).yuv
                switch format {
                case .yuyv:
                    let at = y * bytesPerLine + (x / 2) * 4
                    bytes[at + (x % 2) * 2] = yuv.y
                    bytes[at + 1] = rowBlock.u
                    bytes[at + 3] = rowBlock.v
                case .uyvy:
                    let at = y * bytesPerLine + (x / 2) * 4
                    bytes[at + 1 + (x % 2) * 2] = yuv.y
                    bytes[at] = rowBlock.u
                    bytes[at + 2] = rowBlock.v
                case .nv12:
                    bytes[y * bytesPerLine + x] = yuv.y
                    let uv = bytesPerLine * height + (y / 2) * bytesPerLine + (x / 2) * 2
                    bytes[uv] = block.u
                    bytes[uv + 1] = block.v
                case .i420:
                    bytes[y * bytesPerLine + x] = yuv.y
                    let chromaStride = bytesPerLine / 2
                    let u = bytesPerLine * height + (y / 2) * chromaStride + x / 2
                    bytes[u] = block.u
                    bytes[u + chromaStride * chromaRows] = block.v
                case .rgb24:
                    let at = y * bytesPerLine + x * 3
                    bytes[at] = UInt8(pixel.r); bytes[at + 1] = UInt8(pixel.g); bytes[at + 2] = UInt8(pixel.b)
                case .xrgb:
                    let at = y * bytesPerLine + x * 4
                    withUnsafeBytes(of: pixel.xrgb.littleEndian) { raw in
                        for index in 0..<4 { bytes[at + index] = raw[index] }
                    }
                }
            }
        }
    }

    func withImage<R>(_ body: (CameraImage) throws -> R) throws -> R {
        try bytes.withUnsafeBytes { raw in
            // Test frames always have a base address (never empty).
            let image = try CameraImage(format: format, width: width, height: height, bytesPerLine: bytesPerLine,
                                        base: raw.baseAddress!, byteCount: raw.count)
            return try body(image)
        }
    }
}

/// An x8r8g8b8 destination in memory, optionally a window inside a larger buffer so
/// the test can see that nothing outside the region is touched.
struct TestXRGBBuffer {
    let width: Int
    let height: Int
    let bytesPerRow: Int
    var pixels: [UInt32]

    static let untouched: UInt32 = 0x1234_5678

    init(width: Int, height: Int, extraPixelsPerRow: Int = 0) {
        self.width = width
        self.height = height
        bytesPerRow = (width + extraPixelsPerRow) * 4
        pixels = [UInt32](repeating: Self.untouched, count: (width + extraPixelsPerRow) * height)
    }

    func pixel(_ x: Int, _ y: Int) -> UInt32 { pixels[y * (bytesPerRow / 4) + x] }
    func color(_ x: Int, _ y: Int) -> TestRGB { TestRGB(xrgb: pixel(x, y)) }

    mutating func draw(_ frame: SyntheticCameraFrame, mirrored: Bool,
                       converter: CameraFrameConverter = CameraFrameConverter()) throws -> PixelRect {
        let (width, height, bytesPerRow) = (self.width, self.height, self.bytesPerRow)
        return try pixels.withUnsafeMutableBytes { raw in
            let region = try XRGBRegion(base: raw.baseAddress!, bytesPerRow: bytesPerRow, width: width, height: height)
            return try frame.withImage { image in try converter.draw(image, into: region, mirrored: mirrored) }
        }
    }

    /// The picture flipped left-right, for comparing a mirrored draw with a plain one.
    func flippedHorizontally() -> TestXRGBBuffer {
        var flipped = self
        let rowPixels = bytesPerRow / 4
        for y in 0..<height {
            for x in 0..<width { flipped.pixels[y * rowPixels + x] = pixels[y * rowPixels + (width - 1 - x)] }
        }
        return flipped
    }

    /// On a failed comparison, writes the actual picture and a diff as PPM files and
    /// returns where, so the failure message points at something to look at.
    func writeFailure(name: String, expected: TestXRGBBuffer) -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-camera-test-failures")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let actualPath = folder.appendingPathComponent("\(name)-actual.ppm").path
        let diffPath = folder.appendingPathComponent("\(name)-diff.ppm").path
        writePPM(path: actualPath) { x, y in color(x, y) }
        writePPM(path: diffPath) { x, y in
            let (a, b) = (color(x, y), expected.color(x, y))
            return TestRGB(r: abs(a.r - b.r), g: abs(a.g - b.g), b: abs(a.b - b.b))
        }
        return "actual: \(actualPath), diff: \(diffPath)"
    }

    private func writePPM(path: String, _ color: (Int, Int) -> TestRGB) {
        var data = Data("P6\n\(width) \(height)\n255\n".utf8)
        for y in 0..<height {
            for x in 0..<width {
                let c = color(x, y)
                data.append(contentsOf: [UInt8(c.r), UInt8(c.g), UInt8(c.b)])
            }
        }
        try? data.write(to: URL(fileURLWithPath: path))
    }
}
