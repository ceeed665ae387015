/// The marker band's blend (its colour OVER an XRGB8888 pixel) as per-channel
/// lookup tables, so a few pixels can be tinted one at a time with exactly the
/// result pixman's fill gives. The tables are made by pixman itself: a row of
/// the 256 grey levels filled with the colour, read back.
final class BandTint {
    let color: Color
    /// Channel value after the blend, for red, green and blue: 256 entries each.
    /// Valid while the tint lives (the frame loop reads it without retaining it).
    let table: UnsafeMutableBufferPointer<UInt8>
    /// The X byte pixman writes.
    let xByte: UInt32

    init?(color: Color) {
        guard let levels = try? Canvas(width: 256, height: 1) else { return nil }
        for level in 0..<256 {
            let value = UInt32(level)
            levels.pixels[level] = 0xff00_0000 | value << 16 | value << 8 | value
        }
        PixmanDraw.fill(levels.pixmanImage, rect: PixelRect(size: levels.size), color: color)
        self.color = color
        table = .allocate(capacity: 3 * 256)
        for level in 0..<256 {
            let pixel = levels.pixels[level]
            table[level] = UInt8((pixel >> 16) & 0xff)
            table[256 + level] = UInt8((pixel >> 8) & 0xff)
            table[512 + level] = UInt8(pixel & 0xff)
        }
        xByte = levels.pixels[0] & 0xff00_0000
    }

    deinit {
        table.deallocate()
    }

    @inline(__always)
    static func apply(_ pixel: UInt32, table: UnsafePointer<UInt8>, xByte: UInt32) -> UInt32 {
        xByte | UInt32(table[Int((pixel >> 16) & 0xff)]) << 16
            | UInt32(table[256 + Int((pixel >> 8) & 0xff)]) << 8 | UInt32(table[512 + Int(pixel & 0xff)])
    }
}
