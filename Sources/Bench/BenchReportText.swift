import Foundation
import Kiosk
import Stage

/// The report as Markdown: readable in a terminal, and pasted as it is into
/// bench/RESULTS.md and the README.
struct BenchReportText {
    var report: BenchReport

    func rendered() -> String {
        var out: [String] = []
        let m = report.machine
        out.append("# rig bench")
        out.append("")
        out.append("- Machine: \(m.cpuModel), \(m.processors) processors (`nproc`), Linux \(m.kernel)")
        out.append("- Build: \(report.isReleaseBuild ? "release" : "DEBUG (figures not representative)")")
        out.append("- Command: `\(report.command)`")
        out.append("- Text: `\(report.textFile)`, \(report.textWords) words; times in ms, median and p99 "
                   + "(nearest rank); ratios are rig's median over the other's (below 1: rig is faster)")
        section(&out, "Floor: memcpy of one XRGB8888 frame", ["display", "median", "p99"],
                report.floor.map { ($0.result, [$0.display.description]) }) { _ in [] }
        section(&out, "Outer frame composition, 10,000 words mid-scroll",
                ["display", "size px", "transform", "median", "p99", "x floor", "pieces rasterized"],
                report.composition.map { ($0.result, [$0.display.description, "\($0.sizePx)", $0.transform.description]) }
        ) { i in
            let c = report.composition[i]
            return [Self.ratio(BenchStatistics.ratio(c.result.medianMs, to: report.floorMedian(c.display))),
                    c.piecesRasterized.map(String.init) ?? "-"]
        }
        section(&out, "Outer frame composition at speeds whose row phase changes every frame "
                    + "(\(ProducerBenches.phaseSpeedSize) px)",
                ["display", "transform", "speed px/s", "median", "p99", "x floor", "pieces rasterized"],
                report.compositionAtPhaseSpeeds.map {
                    ($0.result, [$0.display.description, $0.transform.description, "\($0.speed)"])
                }
        ) { i in
            let c = report.compositionAtPhaseSpeeds[i]
            return [Self.ratio(BenchStatistics.ratio(c.result.medianMs, to: report.floorMedian(c.display))),
                    c.piecesRasterized.map(String.init) ?? "-"]
        }
        pangoSection(&out)
        section(&out, "Layout of the whole text (shaping + line breaking, 1920 px display)",
                ["size px", "lines", "median", "p99", "Pango median", "rig / Pango"],
                report.layout.map { ($0.result, ["\($0.sizePx)", $0.lines.map(String.init) ?? "-"]) }
        ) { i in
            let l = report.layout[i]
            let pango = report.pangoLayoutMedian(sizePx: l.sizePx)
            return [Self.ms(pango), Self.ratio(BenchStatistics.ratio(l.result.medianMs, to: pango))]
        }
        section(&out, "Layout of the right-to-left and CJK samples (\(BenchEnvironment.sampleSizePx) px, 1920 px display)",
                ["sample", "lines", "median", "p99", "Pango median", "rig / Pango"],
                report.sampleLayout.map { ($0.result, ["\($0.script) (`\($0.file)`)", $0.lines.map(String.init) ?? "-"]) }
        ) { i in
            let l = report.sampleLayout[i]
            let pango = report.pangoSampleMedian(file: l.file)
            return [Self.ms(pango), Self.ratio(BenchStatistics.ratio(l.result.medianMs, to: pango))]
        }
        section(&out, "Time to first frame after opening the script", ["display", "size px", "median", "p99"],
                report.firstFrame.map { ($0.result, [$0.display.description, "\($0.sizePx)"]) }) { _ in [] }
        section(&out, "Inner console frame (operator view, playing; outer 1920x1080 at 120 px)",
                ["display", "median", "p99", "x floor", "pixels drawn"],
                report.console.map { ($0.result, [$0.display.description]) }) { i in
            let c = report.console[i]
            return [Self.ratio(BenchStatistics.ratio(c.result.medianMs, to: report.floorMedian(c.display))),
                    c.drawnShare.map { String(format: "%.0f %%", $0 * 100) } ?? "-"]
        }
        cameraSection(&out)
        speechSection(&out)
        if let follow = report.follow {
            out.append("")
            out += FollowBench.lines(follow)
        }
        if let load = report.recordingLoad {
            out.append("")
            out += RecordingLoadBench.lines(load)
        }
        if let markup = report.markup {
            out.append("")
            out += MarkupBench.lines(markup)
        }
        switch report.smoothness {
        case let .success(figures)?:
            out.append("")
            out += ScrollSmoothnessTable.lines(figures)
        case let .failure(failure)?:
            out += ["", "## Scroll smoothness", "", "unavailable: \(failure)"]
        case nil: break
        }
        switch report.kioskSmoothness {
        case let .success(rows)?:
            out.append("")
            out += KioskSmoothnessBench.lines(rows, frames: rows.first?.run.steps.count ?? 0)
        case let .failure(failure)?:
            out += ["", "## Scroll smoothness on a running kiosk's frames", "", "unavailable: \(failure)"]
        case nil: break
        }
        if let memory = report.memory {
            out.append("")
            out.append("## Peak resident memory (VmHWM)")
            out.append("")
            func mib(_ kib: Int?) -> String { kib.map { "\($0 / 1024) MiB" } ?? "-" }
            out.append("- rig bench (every case above in one process): \(mib(memory.rigKiB))")
            out.append("- Pango + Cairo peer: \(mib(memory.pangoKiB))")
            out.append("- GStreamer peer: \(mib(memory.gstreamerKiB))")
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// A table whose rows each carry a measurement. If every row is unavailable for
    /// the same reason, one line says so instead of a table of blanks.
    private func section(_ out: inout [String], _ title: String, _ header: [String],
                         _ rows: [(BenchMeasurement, [String])], extra: (Int) -> [String]) {
        out.append("")
        out.append("## " + title)
        out.append("")
        let reasons = Set(rows.compactMap { row -> String? in
            if case let .unavailable(why) = row.0 { return why }
            return nil
        })
        if reasons.count == 1, rows.allSatisfy({ $0.0.summary == nil }), let why = reasons.first {
            out.append("unavailable: \(why)")
            return
        }
        out.append("| " + header.joined(separator: " | ") + " |")
        out.append("|" + header.map { _ in " --- |" }.joined())
        for (i, (result, labels)) in rows.enumerated() {
            let cells: [String]
            switch result {
            case let .measured(s): cells = [Self.ms(s.medianMs), Self.ms(s.p99Ms)] + extra(i)
            case let .unavailable(why): cells = ["unavailable: \(why)", "-"] + extra(i).map { _ in "-" }
            }
            out.append("| " + (labels + cells).joined(separator: " | ") + " |")
        }
    }

    private func pangoSection(_ out: inout [String]) {
        out.append("")
        out.append("## Per frame against Pango + Cairo (upright text, same font and size)")
        out.append("")
        if case let .unavailable(why) = report.pango {
            out.append("unavailable: \(why)")
            return
        }
        if case let .ran(version, _, _, _) = report.pango {
            out.append("Peer: \(version). Naive re-lays out the text every frame; good keeps the layout "
                       + "and draws only the visible lines.")
            out.append("")
        }
        out.append("| display | size px | rig | Pango naive | Pango good | rig / naive | rig / good |")
        out.append("| --- | --- | --- | --- | --- | --- | --- |")
        for row in report.pangoComparisons(sizes: report.sizes) {
            out.append("| \(row.display) | \(row.sizePx) | \(Self.ms(row.ours)) | \(Self.ms(row.naive)) | "
                       + "\(Self.ms(row.good)) | \(Self.ratio(row.ratioToNaive)) | \(Self.ratio(row.ratioToGood)) |")
        }
    }

    private func cameraSection(_ out: inout [String]) {
        guard let camera = report.camera else { return }
        out.append("")
        out.append("## Camera frame conversion, \(camera.frame) to mirrored XRGB8888")
        out.append("")
        out.append("| converter | median | p99 |")
        out.append("| --- | --- | --- |")
        for (name, result) in [("rig (libyuv)", camera.ours),
                               ("GStreamer videoconvert ! videoflip", camera.gstreamer)] {
            switch result {
            case let .measured(s): out.append("| \(name) | \(Self.ms(s.medianMs)) | \(Self.ms(s.p99Ms)) |")
            case let .unavailable(why): out.append("| \(name) | unavailable: \(why) | - |")
            }
        }
        let ratio = BenchStatistics.ratio(camera.ours.medianMs, to: camera.gstreamer.medianMs)
        out.append("")
        out.append("rig / GStreamer: \(Self.ratio(ratio))")
    }

    private func speechSection(_ out: inout [String]) {
        guard let speech = report.speech else { return }
        out.append("")
        out += Self.speechLines(speech)
    }

    static func speechLines(_ speech: BenchReport.Speech) -> [String] {
        var out: [String] = []
        out.append("## Speech: a \(speech.words)-word instruction (espeak-ng, en-us, 175 wpm)")
        out.append("")
        out.append("\"\(speech.instruction)\": " + (speech.duration.map { String(format: "%.3f s of speech", $0) } ?? "-"))
        out.append("")
        out.append("| measure | median | p99 |")
        out.append("| --- | --- | --- |")
        for (name, result) in [("synthesis", speech.synthesis),
                               ("speak to first sample handed to ALSA (\(speech.device))", speech.speakToFirstSample)] {
            switch result {
            case let .measured(s): out.append("| \(name) | \(ms(s.medianMs)) | \(ms(s.p99Ms)) |")
            case let .unavailable(why): out.append("| \(name) | unavailable: \(why) | - |")
            }
        }
        out.append("")
        if let cpu = speech.cpuPerSpeechSecond {
            out.append(String(format: "Synthesis: %.4f s of CPU per second of speech, %.0fx faster than real time", cpu, 1 / cpu))
        }
        return out
    }

    static func ms(_ value: Double?) -> String {
        guard let value else { return "-" }
        return value < 1 ? String(format: "%.3f", value) : String(format: "%.2f", value)
    }

    static func ratio(_ value: Double?) -> String {
        guard let value else { return "-" }
        return value < 10 ? String(format: "%.2f", value) : String(format: "%.0f", value)
    }
}
