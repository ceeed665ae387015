import Foundation
import Prompter
import Render
import Stage
import Testing

/// The console redraws only what changed since the frame its buffer holds (issue
/// 38). Proven against the whole frame: two stages get the same minute of play and
/// the same operator's actions; one draws as a double-buffered display does (each
/// buffer holds the frame before last, only the damage is drawn), the other draws
/// every frame whole. The frame each shows must be the same, pixel for pixel.
@Suite struct ConsolePartialRedrawTests {
    static let inner = PixelSize(width: 960, height: 540)
    static let rate = 20.0

    private static func stage(fonts: FontLibrary) -> ManualClockStage {
        // The console's clock ticks with the stage's: both stages show the same time.
        SceneFixtures.longScriptStage(settings: RigStage.Settings(outerSize: PixelSize(width: 1280, height: 720)),
                                      innerSize: inner, fonts: fonts, id: "minute", title: "A minute of play")
    }

    /// What the operator does during the minute, by frame: keys, and the mouse.
    private static func events(at frame: Int, time: Double) -> [StageEvent] {
        func key(_ action: KeyAction, _ code: UInt32) -> StageEvent {
            .key(KeyPress(code: code, action: action, time: time))
        }
        let second = Double(frame) / rate
        switch second {
        case 0, 23, 26: return [key(.playPause, 57)]                     // play; pause at 23 s; play at 26 s
        case 5, 5.5: return [key(.faster, 103)]
        case 12..<20:                                                    // the mouse crosses the console
            let moved = second - 12
            return [.innerPointer(x: moved * 110, y: 100 + moved * 40, button: nil, time: time)]
        case 30: return [key(.slower, 108)]
        case 40: return [key(.fontLarger, 13)]                           // the script's copy is laid out again
        case 50: return [key(.nextMarker, 109)]
        default: return []
        }
    }

    @Test func aMinuteOfPlayDrawsOnlyWhatChangedWithTheSamePixelsAsWholeFrames() throws {
        let fonts = try FontLibrary()
        let partial = Self.stage(fonts: fonts), whole = Self.stage(fonts: fonts)
        let buffers = [try Canvas(size: Self.inner), try Canvas(size: Self.inner)]
        let reference = try Canvas(size: Self.inner)
        var shown = 0, drawn = 0.0, partialFrames = 0
        for frame in 0..<Int(60 * Self.rate) {
            let time = 100 + Double(frame) / Self.rate
            for stage in [partial, whole] {
                stage.advance(to: time)
                for event in Self.events(at: frame, time: time) { stage.stage.handle(event) }
            }
            let buffer = frame % 2
            let report = partial.frame(.inner, at: time, into: buffers[buffer], mustDraw: frame < 2)
            // An unchanged frame is not flipped: the display keeps the buffer it shows.
            if report.changed { shown = buffer }
            if frame >= 2, report.changed {
                drawn += Double(report.pixelsDrawn) / Double(Self.inner.width * Self.inner.height)
                partialFrames += 1
            }
            whole.frame(.inner, at: time, into: reference)
            guard buffers[shown].pixels.elementsEqual(reference.pixels) else {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-console-redraw").path
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try buffers[shown].writePNG(path: "\(folder)/partial-\(frame).png")
                try reference.writePNG(path: "\(folder)/whole-\(frame).png")
                Issue.record("frame \(frame) (\(Double(frame) / Self.rate) s): the partly redrawn console differs from the whole frame; see \(folder)")
                return
            }
        }
        // It did redraw only a part: the script's copy and the times, not the console.
        #expect(partialFrames > Int(50 * Self.rate))
        #expect(drawn / Double(partialFrames) < 0.4)
    }
}
