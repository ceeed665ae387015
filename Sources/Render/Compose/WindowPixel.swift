import CPixman
import Glibc

/// What a quarter-turn window (QuarterTurnWindow) keeps a pixel in: XRGB8888, or a
/// gray level when the block's pieces are gray (GrayCanvas), a quarter of the bytes
/// for the window to hold, roll along and have read by every frame.
protocol WindowPixel: FixedWidthInteger {
    /// `count` pixels from `source` into the frame at `target`, as XRGB8888; with
    /// `streaming`, by streaming stores (the caller ends the frame with
    /// rig_streaming_done).
    static func copy(_ source: UnsafePointer<Self>, to target: UnsafeMutablePointer<UInt32>, count: Int,
                     streaming: Bool)
    /// `pixel` under the marker band (BandTint's tables: red, green, blue).
    static func tinted(_ pixel: Self, table: UnsafePointer<UInt8>, xByte: UInt32) -> Self
}

extension UInt32: WindowPixel {
    @inline(__always)
    static func copy(_ source: UnsafePointer<UInt32>, to target: UnsafeMutablePointer<UInt32>, count: Int,
                     streaming: Bool) {
        if streaming {
            rig_copy_streaming(target, source, count)
        } else {
            memcpy(target, source, count * 4)
        }
    }

    @inline(__always)
    static func tinted(_ pixel: UInt32, table: UnsafePointer<UInt8>, xByte: UInt32) -> UInt32 {
        BandTint.apply(pixel, table: table, xByte: xByte)
    }
}

extension UInt8: WindowPixel {
    @inline(__always)
    static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt32>, count: Int,
                     streaming: Bool) {
        rig_expand_gray_to(target, source, count, streaming ? 1 : 0)
    }

    /// A gray band (gray text's band is) tints every channel alike: the green table.
    @inline(__always)
    static func tinted(_ pixel: UInt8, table: UnsafePointer<UInt8>, xByte: UInt32) -> UInt8 {
        table[256 + Int(pixel)]
    }
}
