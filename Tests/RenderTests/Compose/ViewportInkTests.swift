@testable import Render
import Testing

/// What a scroll changes, from the ink of two frames: each run of rows with ink,
/// between the columns its own rows use, so a short line (a paragraph's last) is
/// redrawn only as wide as it is, and a quarter turn joins its lines into one.
@Suite struct ViewportInkTests {
    /// A 40-row viewport, 100 columns: a long line at rows 5..<15, a short one at
    /// rows 20..<30 using columns 10..<40.
    static func ink(shiftedBy shift: Int) -> ViewportInk {
        let runs = [PieceInk.InkRun(rows: (5 + shift)..<(15 + shift), columns: 10..<90),
                    PieceInk.InkRun(rows: (20 + shift)..<(30 + shift), columns: 10..<40)]
        return ViewportInk(count: 40, runs: runs)
    }

    @Test func eachLineIsRedrawnOnlyAsWideAsItsInk() {
        let frame = PixelRect(x: 0, y: 0, width: 100, height: 40)
        let rects = Self.ink(shiftedBy: 0).changedArea(since: Self.ink(shiftedBy: 2), frame: frame,
                                                       transform: .identity)
        #expect(rects == [PixelRect(x: 10, y: 5, width: 80, height: 12),
                          PixelRect(x: 10, y: 20, width: 30, height: 12)])
    }

    /// Turned a quarter, the lines are one area from the first to the last (the
    /// window copies each display row in one piece), as wide as the widest.
    @Test func aQuarterTurnJoinsTheLines() {
        let turn = TextTransform(rotation: .quarter)
        let frame = PixelRect(x: 0, y: 0, width: 40, height: 100)
        let rects = Self.ink(shiftedBy: 0).changedArea(since: Self.ink(shiftedBy: 2), frame: frame, transform: turn)
        #expect(rects.count == 1)
        #expect(rects.first.map { $0.width == 27 && $0.height == 80 } == true, "\(rects)")
    }
}
