import CPixman

/// Owns one pixman image made by the text code: a glyph's coverage mask (A8), a colour
/// emoji (premultiplied ARGB), or the solid fill that colours masks.
final class GlyphImage {
    let handle: OpaquePointer
    let width: Int32
    let height: Int32

    init?(format: pixman_format_code_t, width: Int, height: Int) {
        guard width > 0, height > 0,
              let image = pixman_image_create_bits(format, Int32(width), Int32(height), nil, 0) else { return nil }
        handle = image
        self.width = Int32(width)
        self.height = Int32(height)
    }

    init?(solid red: UInt8, _ green: UInt8, _ blue: UInt8, alpha: UInt8) {
        // pixman colours are 16 bits per channel, premultiplied.
        func channel(_ value: UInt8) -> UInt16 { UInt16(UInt32(value) * 257 * UInt32(alpha) / 255) }
        var color = pixman_color_t(red: channel(red), green: channel(green), blue: channel(blue),
                                   alpha: UInt16(alpha) * 257)
        guard let image = pixman_image_create_solid_fill(&color) else { return nil }
        handle = image
        width = 1
        height = 1
    }

    deinit { pixman_image_unref(handle) }

    var bytes: Int { Int(pixman_image_get_stride(handle)) * Int(height) }

    /// Row `y` of the pixel storage.
    func row(_ y: Int) -> UnsafeMutableRawPointer? {
        guard let data = pixman_image_get_data(handle) else { return nil }
        return UnsafeMutableRawPointer(data) + y * Int(pixman_image_get_stride(handle))
    }
}
