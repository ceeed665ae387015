import Kiosk
import Prompter
import Render
import Stage

/// `rig bench --case smoothness`: the outer display scrolling at one speed on one
/// refresh grid, composed through the stage as the kiosk composes it (one frame
/// per vblank, for its presentation time), each frame's step measured from its
/// pixels by ScrollStepMeter. The physical limit is that every frame moves the
/// text by exactly speed ÷ refresh.
///
/// The reading marker is off (`pointer = none`): it stands still by design, and
/// its band and arrows would be counted as ink that does not move.
final class ScrollSmoothnessBench {
    static let speeds = [12, 25, 50, 75, 110, 150, 300]
    /// 60, 59.94 (NTSC-derived modes, 60000/1001) and 50 Hz.
    static let refreshRates: [Double] = [60, 60_000.0 / 1001, 50]
    static let sizePx = 60

    /// One (speed, grid, transform): the steps measured and what they should be.
    struct Run {
        var speed: Int
        var refreshHz: Double
        var transform: BenchReport.Transform
        var ideal: Double
        var steps: [Double]

        var errors: [Double] { steps.map { $0 - ideal } }
        var rmsError: Double {
            errors.isEmpty ? .nan : (errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot()
        }
        var largestError: Double { errors.map(abs).max() ?? .nan }
        /// The share of frames whose step is off the ideal by more than a quarter pixel.
        var shareOffByQuarter: Double {
            errors.isEmpty ? .nan : Double(errors.filter { abs($0) > 0.25 }.count) / Double(errors.count)
        }
    }

    let display: BenchReport.Display
    let text: String
    let fonts: FontLibrary
    /// The text cache's budget: the row phases the frames can choose from depend on it.
    /// Nil: as the kiosk sizes it without `cache_mb` (for the display's size).
    var cacheBudgetBytes: Int?

    init(display: BenchReport.Display, text: String, fonts: FontLibrary) {
        self.display = display
        self.text = text
        self.fonts = fonts
    }

    /// `frames` steps (frames + 1 frames) mid-scroll at full speed.
    func measure(speed: Int, refreshHz: Double, transform: BenchReport.Transform = .identity,
                 frames: Int) throws -> Run {
        let size = PixelSize(width: display.width, height: display.height)
        let canvas = try Canvas(size: size)
        var settings = RigStage.Settings(outerSize: size)
        settings.cacheBudgetBytes = cacheBudgetBytes
        var reading = OuterFrameBench.settings(sizePx: Self.sizePx, transform: transform)
        reading.speed = speed
        reading.pointer = .none
        settings.readingDefaults = reading
        let rig = ManualClockStage(settings: settings, innerSize: size, fonts: fonts)
        rig.open(id: "smoothness", title: "smoothness", text: text)
        rig.finishLayout()
        let start = rig.clock.now
        rig.controller.play(at: start - 1)
        rig.controller.seek(to: rig.controller.engine.maxOffset / 3, at: start)
        let meter = ScrollStepMeter(axis: Self.axis(transform), background: reading.backgroundColor.color,
                                    ink: reading.textColor.color)
        let ideal = Self.displayDirection(reading.textTransform, display: size) * Double(speed) / refreshHz
        // Half a second in: past the ramp that follows the seek, if any.
        let first = start + 0.5
        var previous: [ScrollStepMeter.InkRun]?
        var steps: [Double] = []
        for frame in 0...frames {
            rig.frame(.outer, at: first + Double(frame) / refreshHz, into: canvas)
            let runs = meter.runs(of: canvas)
            if let previous, let step = ScrollStepMeter.step(from: previous, to: runs, ideal: ideal) {
                steps.append(step)
            }
            previous = runs
        }
        return Run(speed: speed, refreshHz: refreshHz, transform: transform, ideal: ideal, steps: steps)
    }

    /// Quarter turns scroll the text along the display's columns.
    static func axis(_ transform: BenchReport.Transform) -> ScrollStepMeter.Axis {
        transform.rotation % 180 == 0 ? .rows : .columns
    }

    /// +1 when the text moves towards larger display coordinates as it scrolls,
    /// −1 otherwise (scrolling moves the text up in text space).
    static func displayDirection(_ text: TextTransform, display: PixelSize) -> Double {
        let viewport = text.textSize(forDisplay: display)
        let upper = text.displayRect(ofText: PixelRect(x: 0, y: 0, width: 1, height: 1), viewport: viewport)
        let lower = text.displayRect(ofText: PixelRect(x: 0, y: 1, width: 1, height: 1), viewport: viewport)
        let towardsLaterText = text.swapsAxes ? lower.x - upper.x : lower.y - upper.y
        return towardsLaterText > 0 ? -1 : 1
    }
}
