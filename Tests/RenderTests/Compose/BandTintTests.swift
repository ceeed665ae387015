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

    @Test(arguments: colours)
    func theBlendOverEveryGrayLevelIsPixmans(colour: Color) throws {
        let tint = try #require(BandTint(color: colour))
        #expect(tint.blend != nil, "the usual blend is done by arithmetic")
        // Every level, through the vector loop and its remainder (count 256 + 5).
        let count = 261
        let levels = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        let frame = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        defer {
            levels.deallocate()
            frame.deallocate()
        }
        for index in 0..<count { levels[index] = UInt8(truncatingIfNeeded: index &* 7) }
        UInt8.copy(levels, underBand: tint, to: frame, count: count)
        let table = try #require(UnsafePointer(tint.table.baseAddress))
        let wrong = (0..<count).filter {
            frame[$0] != BandTint.apply(0xff00_0000 | UInt32(levels[$0]) &* 0x01_0101, table: table, xByte: tint.xByte)
        }
        #expect(wrong.isEmpty, "levels \(wrong.map { levels[$0] })")
    }

    @Test(arguments: colours)
    func theBlendOverColouredPixelsIsPixmans(colour: Color) throws {
        let tint = try #require(BandTint(color: colour))
        let count = 4_099   // the vector loop and its remainder
        let pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        let frame = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        defer {
            pixels.deallocate()
            frame.deallocate()
        }
        for index in 0..<count { pixels[index] = 0xff00_0000 | UInt32(truncatingIfNeeded: index &* 2_654_435_761) >> 8 }
        UInt32.copy(pixels, underBand: tint, to: frame, count: count)
        let table = try #require(UnsafePointer(tint.table.baseAddress))
        let wrong = (0..<count).filter { frame[$0] != BandTint.apply(pixels[$0], table: table, xByte: tint.xByte) }
        #expect(wrong.isEmpty, "\(wrong.count) pixels differ")
    }
}
