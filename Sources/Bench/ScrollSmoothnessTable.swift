import Foundation
import Render

/// The smoothness case as Markdown for bench/RESULTS.md: every speed on every grid
/// upright and turned a quarter (rot90: quarter turns scroll along the display's
/// columns, through their own windows), then every transform at three speeds on the
/// 60 Hz grid, and a sample of the measured steps. A mirror or flip only moves the
/// same pixels, so one transform per axis stands for the others at every speed.
enum ScrollSmoothnessTable {
    static let transformSpeeds = [25, 50, 110]

    static let quarterTurn = BenchReport.Transform(mirror: false, flip: false, rotation: 90)

    /// The case's figures: every speed on every grid upright and turned a quarter,
    /// then `transforms` at three speeds on 60 Hz.
    struct Figures: Sendable {
        var display: BenchReport.Display
        var frames: Int
        var upright: [ScrollSmoothnessBench.Run]
        var turned: [ScrollSmoothnessBench.Run]
        var transformed: [ScrollSmoothnessBench.Run]
    }

    static func measure(text: String, fonts: FontLibrary, frames: Int,
                        display: BenchReport.Display = .fullHD) throws -> [String] {
        lines(try runs(text: text, fonts: fonts, frames: frames, display: display,
                       transforms: BenchReport.Transform.all))
    }

    static func runs(text: String, fonts: FontLibrary, frames: Int, display: BenchReport.Display = .fullHD,
                     transforms: [BenchReport.Transform]) throws -> Figures {
        let bench = ScrollSmoothnessBench(display: display, text: text, fonts: fonts)
        var figures = Figures(display: display, frames: frames, upright: [], turned: [], transformed: [])
        for refresh in ScrollSmoothnessBench.refreshRates {
            for speed in ScrollSmoothnessBench.speeds {
                figures.upright.append(try bench.measure(speed: speed, refreshHz: refresh, frames: frames))
                figures.turned.append(try bench.measure(speed: speed, refreshHz: refresh, transform: quarterTurn,
                                                        frames: frames))
            }
        }
        for transform in transforms {
            for speed in transformSpeeds {
                figures.transformed.append(try bench.measure(speed: speed, refreshHz: 60, transform: transform,
                                                             frames: frames))
            }
        }
        return figures
    }

    static func lines(_ figures: Figures) -> [String] {
        let display = figures.display, frames = figures.frames
        var lines = [
            "## Scroll smoothness, measured from the composed pixels",
            "",
            "Outer \(display), \(ScrollSmoothnessBench.sizePx) px text, \(frames) frame-to-frame steps per row; "
                + "error = measured step − speed ÷ refresh, in px.",
            "",
            "| grid Hz | speed px/s | ideal px/frame | RMS error | largest error | frames off > 0.25 px |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        let sample = figures.upright.first { $0.speed == 50 && $0.refreshHz == 60 }
        lines += gridRows(figures.upright)
        lines += ["", "Upright, worst of all rows: \(worst(figures.upright)).", ""]
        if !figures.turned.isEmpty {
            lines += ["Turned a quarter (\(quarterTurn)), the same speeds and grids:", "",
                      "| grid Hz | speed px/s | ideal px/frame | RMS error | largest error | frames off > 0.25 px |",
                      "| --- | --- | --- | --- | --- | --- |"]
            lines += gridRows(figures.turned)
            lines += ["", "Turned a quarter, worst of all rows: \(worst(figures.turned)).", ""]
        }
        lines += ["| transform | speed px/s (60 Hz) | ideal px/frame | RMS error | largest error | frames off > 0.25 px |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for run in figures.transformed {
            lines.append(row(run, label: run.transform.description))
        }
        if let sample {
            let steps = sample.steps.prefix(12).map { String(format: "%.2f", $0) }.joined(separator: ", ")
            lines += ["", "Measured steps at 50 px/s on 60 Hz (ideal \(format(sample.ideal)) px): \(steps), …"]
        }
        return lines
    }

    private static func gridRows(_ runs: [ScrollSmoothnessBench.Run]) -> [String] {
        runs.map { row($0, label: String(format: "%.2f", $0.refreshHz)) }
    }

    private static func worst(_ runs: [ScrollSmoothnessBench.Run]) -> String {
        let rms = runs.map(\.rmsError).max() ?? .nan, largest = runs.map(\.largestError).max() ?? .nan
        return "RMS \(format(rms)) px, largest \(format(largest)) px"
    }

    static func row(_ run: ScrollSmoothnessBench.Run, label: String) -> String {
        "| \(label) | \(run.speed) | \(format(run.ideal)) | \(format(run.rmsError)) | \(format(run.largestError)) "
            + "| \(String(format: "%.0f", run.shareOffByQuarter * 100)) % (of \(run.steps.count)) |"
    }

    private static func format(_ value: Double) -> String { String(format: "%.3f", value) }
}

extension ScrollSmoothnessTable {
    static func json(_ result: Result<Figures, BenchSetupError>?) -> BenchJSON {
        let figures: Figures
        switch result {
        case nil: return .null
        case let .failure(failure):
            return .object([("status", .string("unavailable")), ("reason", .string(failure.description))])
        case let .success(measured): figures = measured
        }
        func number(_ value: Double) -> BenchJSON { value.isFinite ? .number(value) : .null }
        return .object([
            ("status", .string("ok")),
            ("display", .string(figures.display.description)),
            ("frames", .int(figures.frames)),
            ("rows", .array((figures.upright + figures.turned + figures.transformed).map { run in
                .object([
                    ("grid_hz", .number(run.refreshHz)), ("speed_px_s", .int(run.speed)),
                    ("mirror", .bool(run.transform.mirror)), ("flip", .bool(run.transform.flip)),
                    ("rotation", .int(run.transform.rotation)), ("ideal_px", number(run.ideal)),
                    ("rms_error_px", number(run.rmsError)), ("largest_error_px", number(run.largestError)),
                    ("share_off_quarter_px", number(run.shareOffByQuarter)),
                ])
            })),
        ])
    }
}
