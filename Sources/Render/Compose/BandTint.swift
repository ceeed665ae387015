import CPixman

/// The marker band's blend (its colour OVER an XRGB8888 pixel) as per-channel
/// lookup tables, so pixels can be tinted with exactly the result pixman's fill
/// gives. The tables are made by pixman itself: a row of the 256 grey levels filled
/// with the colour, read back. Where they are the usual rounded blend, the frame
/// loops tint by arithmetic instead (`blend`, rig_band_gray_to and rig_band_xrgb_to),
/// many pixels a step.
final class BandTint {
    let color: Color
    /// Channel value after the blend, for red, green and blue: 256 entries each.
    /// Valid while the tint lives (the frame loop reads it without retaining it).
    let table: UnsafeMutableBufferPointer<UInt8>
    /// The X byte pixman writes.
    let xByte: UInt32
    /// The band over black (X byte included) and the factor every channel keeps:
    /// channel = base + level × ialpha / 255, rounded as pixman rounds. Nil when a
    /// table is not that blend (then each pixel is looked up).
    let blend: (base: UInt32, ialpha: UInt32)?

    /// `arithmetic` false keeps to the tables (tests of the lookups).
    init?(color: Color, arithmetic: Bool = true) {
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
        blend = arithmetic ? Self.blend(of: table, xByte: xByte) : nil
    }

    /// The blend the tables hold, when each is base + rig_band_level(level, ialpha)
    /// for every level: the factor is what white keeps over black.
    private static func blend(of table: UnsafeMutableBufferPointer<UInt8>,
                              xByte: UInt32) -> (base: UInt32, ialpha: UInt32)? {
        let ialpha = UInt32(table[256 + 255]) &- UInt32(table[256])
        guard ialpha <= 255 else { return nil }
        for channel in 0..<3 {
            let base = UInt32(table[channel * 256])
            for level in 0..<256
            where UInt32(table[channel * 256 + level]) != base + rig_band_level(UInt32(level), ialpha) {
                return nil
            }
        }
        let base = xByte | UInt32(table[0]) << 16 | UInt32(table[256]) << 8 | UInt32(table[512])
        return (base, ialpha)
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
