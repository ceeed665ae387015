import CPixman

/// An 8-bit sRGB colour with straight (non-premultiplied) alpha, the form
/// settings and presets speak in. pixman wants premultiplied 16-bit channels;
/// `pixmanColor` converts once per use.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// `0xRRGGBB`, opaque.
    public init(rgb: UInt32) {
        self.init(red: UInt8((rgb >> 16) & 0xff), green: UInt8((rgb >> 8) & 0xff),
                  blue: UInt8(rgb & 0xff))
    }

    public static let black = Color(rgb: 0x000000)
    public static let white = Color(rgb: 0xffffff)

    public var isOpaque: Bool { alpha == 255 }
    /// Red, green and blue equal: text in such a colour on such a background blends
    /// only to grays (GrayCanvas).
    public var isGray: Bool { red == green && green == blue }

    public func withAlpha(_ alpha: UInt8) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// This colour moved `amount` (0...1) of the way towards `other`.
    public func mixed(with other: Color, _ amount: Double) -> Color {
        func blend(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8((Double(a) + (Double(b) - Double(a)) * min(max(amount, 0), 1)).rounded())
        }
        return Color(red: blend(red, other.red), green: blend(green, other.green),
                     blue: blend(blue, other.blue), alpha: blend(alpha, other.alpha))
    }

    /// The pixel as stored in an XRGB8888 buffer (the X byte set to 0xff).
    public var xrgb: UInt32 {
        0xff00_0000 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
    }

    public init(xrgb: UInt32) {
        self.init(rgb: xrgb & 0x00ff_ffff)
    }

    var pixmanColor: pixman_color_t {
        // Premultiply and widen 8 -> 16 bits (x * 257 maps 0xff to 0xffff exactly).
        func channel(_ value: UInt8) -> UInt16 {
            UInt16((UInt32(value) * UInt32(alpha) + 127) / 255 * 257)
        }
        return pixman_color_t(red: channel(red), green: channel(green), blue: channel(blue),
                              alpha: UInt16(alpha) * 257)
    }

    public var description: String {
        let hex = String(xrgb & 0x00ff_ffff, radix: 16)
        return "#" + String(repeating: "0", count: 6 - hex.count) + hex
            + (isOpaque ? "" : " alpha \(alpha)")
    }
}
