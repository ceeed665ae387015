import Foundation
import Prompter
import Render
import Stage
import Testing

/// The outer display redraws only the rows of scrolling text with ink before or
/// after, between its outermost ink columns (issue 38), at every row phase and
/// under each transform. Proven against the whole frame as ConsolePartialRedrawTests
/// does: two stages get the same play and the same keys; one draws as the kiosk's
/// double-buffered outer display does (each buffer holds the frame before last), the
/// other every frame whole, and the frame each shows must be the same, pixel for pixel.
@Suite struct OuterPartialRedrawTests {
    static let outer = PixelSize(width: 960, height: 540)
    /// 30 frames a second at 25 px/s and faster: the text lands on a new row phase
    /// almost every frame.
    static let rate = 30.0
    static let seconds = 44.0

    private static func stage(fonts: FontLibrary) -> ManualClockStage {
        var settings = RigStage.Settings(outerSize: outer)
        settings.readingDefaults.speed = 25
        return SceneFixtures.longScriptStage(settings: settings, innerSize: PixelSize(width: 640, height: 360),
                                             fonts: fonts, id: "outer", title: "Outer redraw")
    }

    /// The operator's keys, by second: speed, pause, transforms (a turn draws through
    /// its window), the text size.
    private static func events(at frame: Int, time: Double) -> [StageEvent] {
        func key(_ action: KeyAction, _ code: UInt32) -> StageEvent {
            .key(KeyPress(code: code, action: action, time: time))
        }
        switch Double(frame) / rate {
        case 0, 20, 22: return [key(.playPause, 57)]        // play; pause at 20 s; play at 22 s
        case 4, 4.5: return [key(.faster, 103)]
        case 8: return [key(.flip, 33)]                      // flipped (the stage starts unmirrored)
        case 12: return [key(.mirror, 50)]                   // mirrored and flipped
        case 16: return [key(.flip, 33)]                     // mirrored, from here to the end
        case 25: return [key(.fontLarger, 13)]               // laid out again
        case 29, 33, 37, 41: return [key(.rotate, 19)]       // 90, 180, 270, back to 0
        default: return []
        }
    }

    @Test func scrollingTextRedrawsOnlyItsInkRowsWithTheSamePixelsAsWholeFrames() throws {
        let fonts = try FontLibrary()
        let partial = Self.stage(fonts: fonts), whole = Self.stage(fonts: fonts)
        let buffers = [try Canvas(size: Self.outer), try Canvas(size: Self.outer)]
        let reference = try Canvas(size: Self.outer)
        var shown = 0
        // The share of the display drawn while scrolling upright (not turned) and how many phases were seen.
        var drawn = 0.0, uprightFrames = 0
        // The same while turned a quarter (from 29.5 s to 33 s and 37.5 s to 41 s).
        var turnedDrawn = 0.0, turnedFrames = 0
        var phases = Set<Int>()
        for frame in 0..<Int(Self.seconds * Self.rate) {
            let time = 100 + Double(frame) / Self.rate
            for stage in [partial, whole] {
                stage.advance(to: time)
                for event in Self.events(at: frame, time: time) { stage.stage.handle(event) }
            }
            let buffer = frame % 2
            let report = partial.frame(.outer, at: time, into: buffers[buffer], mustDraw: frame < 2)
            if report.changed { shown = buffer }
            let second = Double(frame) / Self.rate
            if frame >= 2, report.changed, second >= 1, second < 20 {
                drawn += Double(report.pixelsDrawn) / Double(Self.outer.width * Self.outer.height)
                uprightFrames += 1
                phases.insert(Int((partial.controller.engine.offset(at: time) * 8).rounded()) % 8)
            }
            if frame >= 2, report.changed, (29.5..<33).contains(second) || (37.5..<41).contains(second) {
                turnedDrawn += Double(report.pixelsDrawn) / Double(Self.outer.width * Self.outer.height)
                turnedFrames += 1
            }
            whole.frame(.outer, at: time, into: reference)
            guard buffers[shown].pixels.elementsEqual(reference.pixels) else {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-outer-redraw").path
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try buffers[shown].writePNG(path: "\(folder)/partial-\(frame).png")
                try reference.writePNG(path: "\(folder)/whole-\(frame).png")
                Issue.record("frame \(frame) (\(second) s, \(partial.controller.settings.textTransform)): the partly redrawn outer frame differs from the whole frame; see \(folder)")
                return
            }
        }
        // It scrolled through every phase and drew only a part of each frame: the
        // spacing between lines and the margins stayed.
        #expect(phases.count == 8, "row phases seen: \(phases.sorted())")
        #expect(uprightFrames > Int(17 * Self.rate))
        let share = drawn / Double(max(1, uprightFrames))
        print(String(format: "outer partial redraw: %.0f %% of the display drawn per upright scrolling frame", share * 100))
        #expect(share < 0.85)
        // A quarter turn copies from its window only the display rows the text's ink
        // reaches, its margins left: less than the whole display, though more than
        // upright (its damage joins the lines, see ChunkedTextBlock.changedArea).
        #expect(turnedFrames > Int(6 * Self.rate))
        let turnedShare = turnedDrawn / Double(max(1, turnedFrames))
        print(String(format: "outer partial redraw: %.0f %% of the display drawn per turned scrolling frame",
                     turnedShare * 100))
        #expect(turnedShare < 0.95)
    }
}
