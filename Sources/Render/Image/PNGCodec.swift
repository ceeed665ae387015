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
        let width = canvas.width, height = canvas.height
        var packed = [UInt8](repeating: 0, count: width * height * 3)
        packed.withUnsafeMutableBufferPointer { bytes in
            for index in 0..<(width * height) {
                let pixel = canvas.pixels[index]
                bytes[index * 3] = UInt8(truncatingIfNeeded: pixel)
                bytes[index * 3 + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
                bytes[index * 3 + 2] = UInt8(truncatingIfNeeded: pixel >> 16)
            }
        }
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_BGR)
        let written = packed.withUnsafeBytes { bytes in
            png_image_write_to_stdio(&image, file, 0, bytes.baseAddress, Int32(width * 3), nil)
        }
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
