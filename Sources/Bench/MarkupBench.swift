import Foundation
import Markup
import Prompter
import Render

/// A marked script against the same reading text without its marks (issue 42): the
/// bench text marked as a presenter marks a script — a stressed word in twenty bold,
/// one in thirty italic, one in a hundred highlighted and a `[PAUSE]` every sixty
/// words — read through the library's Markdown parser. (Each marked word in a new face
/// is shaped anew, so layout grows with the share of words marked: a word in seven bold
/// and one in eleven italic measured 1.13–1.18x.) Layout
/// at 60 px and the outer frame at 1920x1080, 60 px, scrolling, each pair run in the
/// same process one after the other. Goals: layout within 1.10x, the frame within 1.05x.
enum MarkupBench {
    struct Figures: Sendable {
        var spans: Int
        var layoutPlain: BenchMeasurement
        var layoutMarked: BenchMeasurement
        var composePlain: BenchMeasurement
        var composeMarked: BenchMeasurement

        var layoutRatio: Double? { BenchStatistics.ratio(layoutMarked.medianMs, to: layoutPlain.medianMs) }
        var composeRatio: Double? { BenchStatistics.ratio(composeMarked.medianMs, to: composePlain.medianMs) }
    }

    static let sizePx = 60

    /// The bench text marked up as a presenter would.
    static func markedScript(_ text: String) -> String {
        var words: [String] = []
        var count = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let marked = line.split(separator: " ", omittingEmptySubsequences: true).map { word -> String in
                count += 1
                let plain = String(word).replacingOccurrences(of: "*", with: "").replacingOccurrences(of: "_", with: "")
                var result = plain
                if count % 20 == 0 { result = "**\(plain)**" } else if count % 30 == 0 { result = "*\(plain)*" }
                if count % 100 == 0 { result = "==\(plain)==" }
                if count % 60 == 0 { result += " [PAUSE]" }
                return result
            }
            words.append(marked.joined(separator: " "))
        }
        return words.joined(separator: "\n")
    }

    static func measure(text: String, plan: BenchPlan, fonts: FontLibrary) -> Figures {
        let read = ScriptLibrary.readingTextAndMarkers(markedScript(text), format: .markdown, lineBreaks: .keep)
        let display = BenchReport.Display.fullHD
        let column = Double(display.width - 2 * ProducerBenches.margin(forColumn: display.width))
        // Layout: plain and marked in turn, so both see the same machine.
        var plainSamples: [Double] = [], markedSamples: [Double] = []
        var layoutFailure: String?
        do {
            for _ in 0..<plan.layoutRepeats * 4 {
                for (markup, index) in [(ReadingMarkup.none, 0), (read.markup, 1)] {
                    let (_, ms) = try BenchClock.onceMs { () throws(TextError) -> TextLayout in
                        let layout = try TextLayout(text: read.text, markup: markup,
                                                    style: ProducerBenches.style(sizePx: sizePx),
                                                    columnWidth: column, fonts: fonts)
                        layout.layoutAll()
                        return layout
                    }
                    if index == 0 { plainSamples.append(ms) } else { markedSamples.append(ms) }
                }
            }
        } catch {
            layoutFailure = "layout: \(error)"
        }
        let (composePlain, composeMarked) = compose(text: read.text, markup: read.markup, plan: plan, fonts: fonts)
        return Figures(spans: read.markup.spans.count,
                       layoutPlain: layoutFailure.map { .unavailable($0) } ?? BenchMeasurement(samplesMs: plainSamples),
                       layoutMarked: layoutFailure.map { .unavailable($0) } ?? BenchMeasurement(samplesMs: markedSamples),
                       composePlain: composePlain, composeMarked: composeMarked)
    }

    /// Both scripts scrolling side by side, a frame of one then a frame of the other, so
    /// a slow moment of the shared machine falls on both.
    private static func compose(text: String, markup: ReadingMarkup, plan: BenchPlan,
                                fonts: FontLibrary) -> (BenchMeasurement, BenchMeasurement) {
        let outers: [OuterFrameBench]
        do {
            outers = try [ReadingMarkup.none, markup].map {
                try OuterFrameBench(display: .fullHD, text: text, markup: $0, sizePx: sizePx, transform: .identity,
                                    fonts: fonts)
            }
        } catch {
            return (.unavailable("\(error)"), .unavailable("\(error)"))
        }
        var samples: [[Double]] = [[], []]
        for outer in outers { outer.scrollToMiddle() }
        for frame in 0..<(plan.composeWarmup + plan.composeFrames * 3) {
            for (index, outer) in outers.enumerated() {
                let start = BenchClock.nanoseconds()
                outer.composeFrame()
                if frame >= plan.composeWarmup { samples[index].append(Double(BenchClock.nanoseconds() - start) / 1e6) }
                outer.advance()
            }
        }
        return (BenchMeasurement(samplesMs: samples[0]), BenchMeasurement(samplesMs: samples[1]))
    }

    static func lines(_ figures: Figures) -> [String] {
        func ratio(_ value: Double?) -> String { value.map { String(format: "%.2fx", $0) } ?? "-" }
        return [
            "## Marked script (emphasis, highlights, directions) against the same text unmarked",
            "",
            "\(figures.spans) marked spans; 60 px, 1920x1080. Goals: layout within 1.10x, outer frame within 1.05x.",
            "",
            "| | unmarked median | marked median | marked / unmarked |",
            "| --- | --- | --- | --- |",
            "| layout | \(BenchReportText.ms(figures.layoutPlain.medianMs)) | \(BenchReportText.ms(figures.layoutMarked.medianMs)) | \(ratio(figures.layoutRatio)) |",
            "| outer frame | \(BenchReportText.ms(figures.composePlain.medianMs)) | \(BenchReportText.ms(figures.composeMarked.medianMs)) | \(ratio(figures.composeRatio)) |",
        ]
    }

    static func json(_ figures: Figures?) -> BenchJSON {
        guard let figures else { return .null }
        func number(_ value: Double?) -> BenchJSON { value.map { .number($0) } ?? .null }
        return .object([
            ("spans", .int(figures.spans)),
            ("layout_unmarked", .object(figures.layoutPlain.json)),
            ("layout_marked", .object(figures.layoutMarked.json)),
            ("layout_ratio", number(figures.layoutRatio)),
            ("frame_unmarked", .object(figures.composePlain.json)),
            ("frame_marked", .object(figures.composeMarked.json)),
            ("frame_ratio", number(figures.composeRatio)),
        ])
    }
}
