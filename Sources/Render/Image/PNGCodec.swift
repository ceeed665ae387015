import CPNG
import Foundation

/// PNG in and out through libpng's simplified API, which keeps libpng's
/// setjmp/longjmp error handling inside libpng (Swift cannot longjmp).
enum PNGCodec {
    /// Writes `canvas` as an 8-bit RGB PNG, atomically: a temporary file in the
    /// same folder, fsync, rename, fsync of the folder.
    static func write(_ canvas: Canvas, to path: String) throws(ImageError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/." + url.lastPathComponent + ".\(getpid()).tmp"
        guard let file = fopen(temporary, "wb") else {
            throw .pngWrite(path: path, reason: String(cString: strerror(errno)))
        }
        var closed = false
        defer {
            if !closed { fclose(file) }
            unlink(temporary)
        }
        // XRGB in memory is B,G,R,X; libpng wants 3 bytes a pixel for an RGB file.
        // Pack in place (each pixel moves down, never past an unread one) and unpack
        // afterwards: a 4K snapshot then needs no second 25 MB buffer.
        let width = canvas.width, height = canvas.height, count = width * height
        guard let base = canvas.pixels.baseAddress else { throw .pngWrite(path: path, reason: "empty image") }
        let bytes = UnsafeMutableRawPointer(base).assumingMemoryBound(to: UInt8.self)
        for index in 0..<count {
            let pixel = canvas.pixels[index]
            bytes[index * 3] = UInt8(truncatingIfNeeded: pixel)
            bytes[index * 3 + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
            bytes[index * 3 + 2] = UInt8(truncatingIfNeeded: pixel >> 16)
        }
        defer {
            for index in stride(from: count - 1, through: 0, by: -1) {
                let blue = UInt32(bytes[index * 3]), green = UInt32(bytes[index * 3 + 1])
                let red = UInt32(bytes[index * 3 + 2])
                canvas.pixels[index] = 0xff00_0000 | red << 16 | green << 8 | blue
            }
        }
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_BGR)
        let written = png_image_write_to_stdio(&image, file, 0, bytes, Int32(width * 3), nil)
        guard written != 0 else {
            let reason = message(of: &image)
            png_image_free(&image)
            throw .pngWrite(path: path, reason: reason)
        }
        guard fflush(file) == 0, fsync(fileno(file)) == 0 else {
            throw .pngWrite(path: path, reason: String(cString: strerror(errno)))
        }
        closed = true
        guard fclose(file) == 0, rename(temporary, path) == 0 else {
            throw .pngWrite(path: path, reason: String(cString: strerror(errno)))
        }
        let directory = open(folder.isEmpty ? "." : folder, O_RDONLY)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    /// Reads any PNG libpng understands into a new canvas (alpha is dropped).
    static func read(from path: String) throws(ImageError) -> Canvas {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            throw .pngRead(path: path, reason: message(of: &image))
        }
        // B,G,R,A bytes are exactly a little-endian XRGB8888 pixel.
        image.format = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_BGR | PNG_FORMAT_FLAG_ALPHA)
        let canvas: Canvas
        do {
            canvas = try Canvas(width: Int(image.width), height: Int(image.height))
        } catch {
            png_image_free(&image)
            throw error
        }
        guard png_image_finish_read(&image, nil, canvas.pixels.baseAddress,
                                    Int32(canvas.width * 4), nil) != 0 else {
            let reason = message(of: &image)
            png_image_free(&image)
            throw .pngRead(path: path, reason: reason)
        }
        return canvas
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
