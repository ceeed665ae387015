import Foundation
import Render

/// The smoothness case as Markdown for bench/RESULTS.md: every speed on every grid
/// upright, then every transform at three speeds on the 60 Hz grid (quarter turns
/// scroll along the display's columns), and a sample of the measured steps.
enum ScrollSmoothnessTable {
    static let transformSpeeds = [25, 50, 110]

    static func measure(text: String, fonts: FontLibrary, frames: Int,
                        display: BenchReport.Display = .fullHD) throws -> [String] {
        let bench = ScrollSmoothnessBench(display: display, text: text, fonts: fonts)
        var lines = [
            "## Scroll smoothness, measured from the composed pixels",
            "",
            "Outer \(display), \(ScrollSmoothnessBench.sizePx) px text, \(frames) frame-to-frame steps per row; "
                + "error = measured step − speed ÷ refresh, in px.",
            "",
            "| grid Hz | speed px/s | ideal px/frame | RMS error | largest error | frames off > 0.25 px |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        var sample: ScrollSmoothnessBench.Run?
        var worst = (rms: 0.0, largest: 0.0)
        for refresh in ScrollSmoothnessBench.refreshRates {
            for speed in ScrollSmoothnessBench.speeds {
                let run = try bench.measure(speed: speed, refreshHz: refresh, frames: frames)
                if speed == 50 && refresh == 60 { sample = run }
                worst = (max(worst.rms, run.rmsError), max(worst.largest, run.largestError))
                lines.append(row(run, label: String(format: "%.2f", refresh)))
            }
        }
        lines += ["", "Upright, worst of all rows: RMS \(format(worst.rms)) px, largest \(format(worst.largest)) px.", ""]
        lines += ["| transform | speed px/s (60 Hz) | ideal px/frame | RMS error | largest error | frames off > 0.25 px |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for transform in BenchReport.Transform.all {
            for speed in transformSpeeds {
                let run = try bench.measure(speed: speed, refreshHz: 60, transform: transform, frames: frames)
                lines.append(row(run, label: transform.description))
            }
        }
        if let sample {
            let steps = sample.steps.prefix(12).map { String(format: "%.2f", $0) }.joined(separator: ", ")
            lines += ["", "Measured steps at 50 px/s on 60 Hz (ideal \(format(sample.ideal)) px): \(steps), …"]
        }
        return lines
    }

    static func row(_ run: ScrollSmoothnessBench.Run, label: String) -> String {
        "| \(label) | \(run.speed) | \(format(run.ideal)) | \(format(run.rmsError)) | \(format(run.largestError)) "
            + "| \(String(format: "%.0f", run.shareOffByQuarter * 100)) % (of \(run.steps.count)) |"
    }

    private static func format(_ value: Double) -> String { String(format: "%.3f", value) }
}
