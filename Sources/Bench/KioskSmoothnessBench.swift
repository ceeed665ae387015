import Foundation
import Kiosk
import Prompter
import Render

/// Scroll smoothness on the frames of a running kiosk (issue 38): the headless kiosk's
/// own loop, frame pacing and flips (`KioskScrollProbe`), each shown outer frame read
/// with the same pixel meter as the smoothness case. The ideal step of a frame is the
/// speed times the time since the frame before it was shown, so a missed vblank (a
/// frame shown a vblank late, the text moved twice as far) is not counted as judder;
/// the missed vblanks are reported beside the errors, with the frames shown a vblank
/// or more after the one before from the press of play on (KioskScrollProbe's
/// `lateFrames`: the start of a scroll included, and a frame the loop asked for late).
enum KioskSmoothnessBench {
    static let speeds = [25, 50, 110]
    static let sizePx = 60

    /// What the full run measures: upright and turned a quarter, at 1080p and 4K (the
    /// quick run: 1080p upright). A quarter turn's windows and 4K's fewer phases are
    /// where the app could differ from the bench's frames.
    static func configurations(quick: Bool) -> [(display: BenchReport.Display, transform: BenchReport.Transform)] {
        let turned = BenchReport.Transform(mirror: false, flip: false, rotation: 90)
        let all = BenchReport.Display.all.flatMap { display in [(display, BenchReport.Transform.identity), (display, turned)] }
        return quick ? Array(all.prefix(1)) : all
    }

    struct Row: Sendable {
        var display: BenchReport.Display
        var transform: BenchReport.Transform
        var speed: Int
        var run: ScrollSmoothnessBench.Run
        var missedVblanks: Int
        /// Shown over one and a half refresh periods after the frame before, from play.
        var lateFrames: Int
    }

    /// `transform` is the text's, as `prompter.mirror`, `flip` and `rotation` set it.
    static func measure(text: String, frames: Int, display: BenchReport.Display = .fullHD,
                        transform: BenchReport.Transform = .identity) throws -> [Row] {
        let settings = OuterFrameBench.settings(sizePx: sizePx, transform: transform)
        let meter = ScrollStepMeter(axis: ScrollSmoothnessBench.axis(transform),
                                    background: settings.backgroundColor.color, ink: settings.textColor.color)
        let direction = ScrollSmoothnessBench.displayDirection(
            settings.textTransform, display: PixelSize(width: display.width, height: display.height))
        return try speeds.map { speed in
            var previous: (runs: [ScrollStepMeter.InkRun], time: Double)?
            var steps: [Double] = [], ideals: [Double] = []
            let outcome = try KioskScrollProbe.run(text: text, width: display.width, height: display.height,
                                                   fontSize: sizePx, speed: speed, transform: (transform.mirror,
                                                   transform.flip, transform.rotation),
                                                   frames: frames + 1) { shown in
                let runs = meter.runs(pixels: shown.pixels, width: shown.width, height: shown.height,
                                      stride: shown.stride)
                if let previous {
                    let ideal = direction * Double(speed) * (shown.time - previous.time)
                    if let step = ScrollStepMeter.step(from: previous.runs, to: runs, ideal: ideal) {
                        steps.append(step - ideal)
                        ideals.append(ideal)
                    }
                }
                previous = (runs, shown.time)
            }
            // The run's errors are against each frame's own ideal: stored as steps
            // around a common ideal of the mean, so Run's statistics read them.
            let meanIdeal = ideals.isEmpty ? 0 : ideals.reduce(0, +) / Double(ideals.count)
            let run = ScrollSmoothnessBench.Run(speed: speed, refreshHz: 60, transform: transform, ideal: meanIdeal,
                                                steps: steps.map { $0 + meanIdeal })
            return Row(display: display, transform: transform, speed: speed, run: run,
                       missedVblanks: outcome.missedVblanks, lateFrames: outcome.lateFrames)
        }
    }

    /// The measure for a report, every configuration of the run: the rows, or why
    /// there are none.
    static func report(text: String, frames: Int, quick: Bool) -> Result<[Row], BenchSetupError> {
        do {
            return .success(try configurations(quick: quick).flatMap {
                try measure(text: text, frames: frames, display: $0.display, transform: $0.transform)
            })
        } catch {
            return .failure(BenchSetupError("\(error)"))
        }
    }

    static func json(_ result: Result<[Row], BenchSetupError>?) -> BenchJSON {
        switch result {
        case nil: return .null
        case let .failure(failure):
            return .object([("status", .string("unavailable")), ("reason", .string(failure.description))])
        case let .success(rows):
            func number(_ value: Double) -> BenchJSON { value.isFinite ? .number(value) : .null }
            return .object([("status", .string("ok")), ("rows", .array(rows.map { row in
                .object([("display", .string(row.display.description)), ("transform", .string(row.transform.description)),
                         ("speed_px_s", .int(row.speed)), ("ideal_px", number(row.run.ideal)),
                         ("steps", .int(row.run.steps.count)), ("rms_error_px", number(row.run.rmsError)),
                         ("largest_error_px", number(row.run.largestError)),
                         ("share_off_quarter_px", number(row.run.shareOffByQuarter)),
                         ("missed_vblanks", .int(row.missedVblanks)), ("late_frames", .int(row.lateFrames))])
            }))])
        }
    }

    static func lines(_ rows: [Row], frames: Int) -> [String] {
        [
            "## Scroll smoothness on a running kiosk's frames",
            "",
            "`rig run --backend headless` in-process: outer display at 60 Hz, \(sizePx) px text, played "
                + "\(Int(KioskScrollProbe.pauseBeforePlay)) s after the script opened, the frames as its flips "
                + "complete, \(frames) steps per speed from a second after play; error = measured step − speed × time "
                + "between the frames, in px; late: frames shown over 1.5 refresh periods after the one before, "
                + "from play on.",
            "",
            "| display | transform | speed px/s | ideal px/frame | RMS error | largest error | frames off > 0.25 px "
                + "| missed vblanks | late |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ] + rows.map { row in
            String(format: "| %@ | %@ | %d | %.3f | %.3f | %.3f | %.0f %% (of %d) | %d | %d |",
                   row.display.description, row.transform.description, row.speed, row.run.ideal,
                   row.run.rmsError, row.run.largestError, row.run.shareOffByQuarter * 100, row.run.steps.count,
                   row.missedVblanks, row.lateFrames)
        }
    }
}
