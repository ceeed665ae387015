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
    /// `count` pixels from `source` into the frame at `target` under the marker band
    /// (BandTint: by arithmetic where its blend is the usual one, else by its tables).
    static func copy(_ source: UnsafePointer<Self>, underBand tint: BandTint, to target: UnsafeMutablePointer<UInt32>,
                     count: Int)
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

    static func copy(_ source: UnsafePointer<UInt32>, underBand tint: BandTint, to target: UnsafeMutablePointer<UInt32>,
                     count: Int) {
        if let blend = tint.blend {
            return rig_band_xrgb_to(target, source, count, blend.base, blend.ialpha)
        }
        guard let table = UnsafePointer(tint.table.baseAddress) else { return }
        for i in 0..<count { target[i] = BandTint.apply(source[i], table: table, xByte: tint.xByte) }
    }
}

extension UInt8: WindowPixel {
    @inline(__always)
    static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt32>, count: Int,
                     streaming: Bool) {
        rig_expand_gray_to(target, source, count, streaming ? 1 : 0)
    }

    /// A band of any colour over gray levels: by arithmetic, or where the blend is not
    /// the usual one each channel through its own table.
    static func copy(_ source: UnsafePointer<UInt8>, underBand tint: BandTint, to target: UnsafeMutablePointer<UInt32>,
                     count: Int) {
        if let blend = tint.blend {
            return rig_band_gray_to(target, source, count, blend.base, blend.ialpha)
        }
        guard let table = UnsafePointer(tint.table.baseAddress) else { return }
        for i in 0..<count {
            let level = Int(source[i])
            target[i] = tint.xByte | UInt32(table[level]) << 16 | UInt32(table[256 + level]) << 8
                | UInt32(table[512 + level])
        }
    }
}
