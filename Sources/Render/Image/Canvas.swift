import CPixman
import Foundation

/// Something the compositor can draw into: an XRGB8888 pixman image. `Canvas`
/// owns ordinary memory; `BorrowedFrameBuffer` wraps memory someone else owns
/// (a mapped scanout buffer, which must never be read back).
public protocol PixelTarget: AnyObject {
    var size: PixelSize { get }
    /// The `pixman_image_t *` to draw into; valid while the target lives.
    var pixmanImage: OpaquePointer { get }
}

/// One XRGB8888 image in ordinary (cached, readable) memory. It is the single
/// owner of its pixman image and of the pixel memory under it.
public final class Canvas: PixelTarget {
    public let size: PixelSize
    public let pixmanImage: OpaquePointer
    /// Pixels from the top-left corner, row after row; `size.width` per row
    /// (32-bit pixels make pixman's stride exactly `width * 4`). Valid while the
    /// canvas lives.
    public let pixels: UnsafeMutableBufferPointer<UInt32>

    public var width: Int { size.width }
    public var height: Int { size.height }
    public var byteCount: Int { pixels.count * 4 }

    /// Largest side pixman's 16.16 fixed-point transforms handle exactly.
    public static let maximumSide = 32767

    /// A canvas cleared to black.
    public init(width: Int, height: Int) throws(ImageError) {
        guard (1...Canvas.maximumSide).contains(width), (1...Canvas.maximumSide).contains(height)
        else { throw .invalidSize(width: width, height: height) }
        let bytes = width * height * 4
        guard let memory = Canvas.allocatePixels(bytes: bytes) else {
            throw .outOfMemory(width: width, height: height)
        }
        memset(memory, 0, bytes)
        let data = memory.assumingMemoryBound(to: UInt32.self)
        guard let image = pixman_image_create_bits(PIXMAN_x8r8g8b8, Int32(width), Int32(height),
                                                   data, Int32(width * 4))
        else {
            free(memory)
            throw .outOfMemory(width: width, height: height)
        }
        self.size = PixelSize(width: width, height: height)
        self.pixmanImage = image
        self.pixels = UnsafeMutableBufferPointer(start: data, count: width * height)
    }

    private static let hugePageBytes = 2 << 20

    /// Pixel memory of our own (release with `free`), so large images (frames, cached
    /// text pieces, GrayCanvas) can ask for transparent huge pages: a frame copy
    /// touches every row of several megabyte-sized images, and 4 KB pages make that a
    /// TLB-miss walk. Not cleared.
    static func allocatePixels(bytes: Int) -> UnsafeMutableRawPointer? {
        let alignment = bytes >= hugePageBytes ? hugePageBytes : 64
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, alignment, bytes) == 0, let memory else { return nil }
        if alignment == hugePageBytes { madvise(memory, bytes, MADV_HUGEPAGE) }
        return memory
    }

    public convenience init(size: PixelSize) throws(ImageError) {
        try self.init(width: size.width, height: size.height)
    }

    deinit {
        pixman_image_unref(pixmanImage)
        free(pixels.baseAddress)
    }

    public func pixel(x: Int, y: Int) -> UInt32 {
        pixels[y * size.width + x] | 0xff00_0000
    }

    public func color(x: Int, y: Int) -> Color {
        Color(xrgb: pixel(x: x, y: y))
    }

    public func fill(_ color: Color) {
        PixmanDraw.fill(pixmanImage, rect: PixelRect(size: size), color: color.withAlpha(255))
    }

    /// True when both canvases have the same size and the same colour at every
    /// pixel (the unused X byte is ignored).
    public func hasSamePixels(as other: Canvas) -> Bool {
        guard size == other.size else { return false }
        for index in 0..<pixels.count where (pixels[index] ^ other.pixels[index]) & 0x00ff_ffff != 0 {
            return false
        }
        return true
    }

    public func writePNG(path: String) throws(ImageError) {
        try PNGCodec.write(self, to: path)
    }

    public static func readPNG(path: String) throws(ImageError) -> Canvas {
        try PNGCodec.read(from: path)
    }
}

/// A pixman image over pixel memory owned elsewhere, typically a mapped
/// scanout (dumb) buffer. Only the pixman handle is released here.
public final class BorrowedFrameBuffer: PixelTarget {
    public let size: PixelSize
    public let pixmanImage: OpaquePointer

    /// `memory` must hold `height` rows of `strideBytes` and outlive this object.
    public init(memory: UnsafeMutableRawPointer, width: Int, height: Int,
                strideBytes: Int) throws(ImageError) {
        guard (1...Canvas.maximumSide).contains(width), (1...Canvas.maximumSide).contains(height),
              strideBytes >= width * 4, strideBytes % 4 == 0
        else { throw .invalidSize(width: width, height: height) }
        guard let image = pixman_image_create_bits(
            PIXMAN_x8r8g8b8, Int32(width), Int32(height),
            memory.assumingMemoryBound(to: UInt32.self), Int32(strideBytes))
        else { throw .outOfMemory(width: width, height: height) }
        self.size = PixelSize(width: width, height: height)
        self.pixmanImage = image
    }

    deinit {
        pixman_image_unref(pixmanImage)
    }
}
