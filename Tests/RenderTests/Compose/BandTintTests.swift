import CPixman
@testable import Render
import Testing

/// Quarter turns blend the marker band into each frame as it is copied from a window,
/// by arithmetic many pixels a step (rig_band_gray_to, rig_band_xrgb_to). It must give
/// exactly what pixman's fill gives, which BandTint's tables hold.
@Suite struct BandTintTests {
    static let colours: [Color] = [
        Color(rgb: 0xf0f0f0).withAlpha(28), Color(rgb: 0xffffff).withAlpha(28), Color(rgb: 0xffe066).withAlpha(28),
        Color(rgb: 0x00ff80).withAlpha(40), Color(rgb: 0x203040).withAlpha(200), Color(rgb: 0x80c0ff),
    ]

    /// `pixels` through `Pixel.copy(_:underBand:to:count:)`.
    static func blended<Pixel: WindowPixel>(_ pixels: [Pixel], under tint: BandTint) -> [UInt32] {
        var frame = [UInt32](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { source in
            frame.withUnsafeMutableBufferPointer { target in
                guard let from = source.baseAddress, let to = target.baseAddress else { return }
                Pixel.copy(from, underBand: tint, to: to, count: pixels.count)
            }
        }
        return frame
    }

    /// By arithmetic, and by the tables where the blend is not the usual one.
    @Test(arguments: colours, [true, false])
    func theBlendOverEveryGrayLevelIsPixmans(colour: Color, arithmetic: Bool) throws {
        let tint = try #require(BandTint(color: colour, arithmetic: arithmetic))
        #expect((tint.blend != nil) == arithmetic, "the usual blend is done by arithmetic")
        // Every level, through the vector loop and its remainder (256 + 5).
        let levels = (0..<261).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let frame = Self.blended(levels, under: tint)
        let table = try #require(UnsafePointer(tint.table.baseAddress))
        let wrong = levels.indices.filter {
            frame[$0] != BandTint.apply(0xff00_0000 | UInt32(levels[$0]) &* 0x01_0101, table: table, xByte: tint.xByte)
        }
        #expect(wrong.isEmpty, "levels \(wrong.map { levels[$0] })")
    }

    @Test(arguments: colours, [true, false])
    func theBlendOverColouredPixelsIsPixmans(colour: Color, arithmetic: Bool) throws {
        let tint = try #require(BandTint(color: colour, arithmetic: arithmetic))
        // The vector loop and its remainder.
        let pixels = (0..<4_099).map { 0xff00_0000 | UInt32(truncatingIfNeeded: $0 &* 2_654_435_761) >> 8 }
        let frame = Self.blended(pixels, under: tint)
        let table = try #require(UnsafePointer(tint.table.baseAddress))
        let wrong = pixels.indices.filter { frame[$0] != BandTint.apply(pixels[$0], table: table, xByte: tint.xByte) }
        #expect(wrong.isEmpty, "\(wrong.count) pixels differ")
    }
}
