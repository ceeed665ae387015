import Foundation
import Kiosk
import Stage

/// Runs every case of a plan and collects the report. Progress goes to stderr so
/// stdout carries only the report (the JSON object with `--json`).
struct BenchRunner {
    var plan: BenchPlan
    var benchDirectory: String
    var text: String
    var command: String
    var progress: (String) -> Void

    func run() -> BenchReport {
        var report = BenchReport(
            command: command, isReleaseBuild: BenchEnvironment.isReleaseBuild, quick: plan.quick,
            machine: BenchEnvironment.machine(), textFile: "bench/texts/" + BenchEnvironment.textName,
            textWords: text.split(whereSeparator: \.isWhitespace).count)

        for display in BenchReport.Display.all {
            progress("floor: memcpy of one \(display) XRGB8888 frame")
            var floor = FloorBench(display: display)
            report.floor.append(.init(display: display,
                                      result: floor.measure(frames: plan.floorFrames)))
        }
        switch ProducerBenches.fonts() {
        case let .success(fonts):
            progress("layout of \(report.textWords) words")
            report.layout = ProducerBenches.layout(text: text, plan: plan, fonts: fonts)
            report.sampleLayout = ProducerBenches.sampleLayouts(directory: benchDirectory, plan: plan, fonts: fonts)
            progress("time to first frame")
            report.firstFrame = ProducerBenches.firstFrame(text: text, plan: plan, fonts: fonts)
            progress("outer frame composition, \(plan.transforms.count) transforms x 3 sizes x 2 displays")
            report.composition = ProducerBenches.composition(text: text, plan: plan, fonts: fonts, progress: progress)
            progress("outer frame composition at speeds whose row phase changes every frame")
            report.compositionAtPhaseSpeeds = ProducerBenches.compositionAtPhaseSpeeds(text: text, plan: plan,
                                                                                       fonts: fonts, progress: progress)
            progress("inner console frame while playing")
            report.console = ProducerBenches.console(text: text, plan: plan)
            progress("a marked script against the same text unmarked")
            report.markup = MarkupBench.measure(text: text, plan: plan, fonts: fonts)
            progress("scroll smoothness from the composed pixels, \(plan.transforms.count) transforms")
            report.smoothness = Result {
                try ScrollSmoothnessTable.runs(text: text, fonts: fonts, frames: plan.smoothnessFrames,
                                               transforms: plan.transforms)
            }.mapError { BenchSetupError("\($0)") }
            progress("scroll smoothness on a running headless kiosk's shown frames")
            report.kioskSmoothness = KioskSmoothnessBench.report(text: text, frames: plan.smoothnessFrames,
                                                                 quick: plan.quick)
        case let .failure(error):
            report.layout = BenchPlan.sizes.map {
                .init(display: .fullHD, sizePx: $0, lines: nil, result: .unavailable(error.description))
            }
            report.sampleLayout = BenchEnvironment.samples.map {
                .init(file: $0.file, script: $0.script, sizePx: BenchEnvironment.sampleSizePx, lines: nil,
                      result: .unavailable(error.description))
            }
            report.firstFrame = BenchReport.Display.all.flatMap { display in
                BenchPlan.sizes.map { .init(display: display, sizePx: $0, result: .unavailable(error.description)) }
            }
            report.console = BenchReport.Display.all.map {
                .init(display: $0, result: .unavailable(error.description), drawnShare: nil)
            }
            report.composition = BenchReport.Display.all.flatMap { display in
                BenchPlan.sizes.flatMap { size in
                    plan.transforms.map {
                        .init(display: display, sizePx: size, transform: $0, result: .unavailable(error.description))
                    }
                }
            }
        }

        let peers = PeerRunner(benchDirectory: benchDirectory)
        var pangoPeak: Int?
        var gstreamerPeak: Int?
        let samplePaths = BenchEnvironment.samples.map { benchDirectory + "/texts/" + $0.file }
        if plan.peers { progress("peer: Pango + Cairo (bench/peers/pango_scroll.py)") }
        switch !plan.peers ? .failure(.notRun) : peers.run("pango_scroll.py", ["--text", benchDirectory + "/texts/" + BenchEnvironment.textName,
                                             "--samples", samplePaths.joined(separator: ",")]
                         + plan.peerArguments) {
        case let .success(object):
            report.pango = PeerFigures.pango(object)
            pangoPeak = object["peak_rss_kib"] as? Int
        case let .failure(failure): report.pango = .unavailable(failure.description)
        }

        progress("camera conversion, ours and GStreamer (bench/peers/gst_camera.py)")
        let ours = ProducerBenches.camera(frames: plan.cameraFrames)
        var gstreamer = BenchMeasurement.unavailable("not run")
        var gstVersion: String?
        switch !plan.peers ? .failure(.notRun) : peers.run("gst_camera.py", ["--frames", String(plan.cameraFrames)]) {
        case let .success(object):
            gstreamer = PeerFigures.measurement(object)
            gstVersion = object["gstreamer_version"] as? String
            gstreamerPeak = object["peak_rss_kib"] as? Int
        case let .failure(failure):
            gstreamer = .unavailable(failure.description)
        }
        report.camera = .init(frame: "1920x1080 YUYV", ours: ours, gstreamer: gstreamer,
                              gstreamerVersion: gstVersion)
        progress("speech: synthesis and speak to first sample (ALSA null)")
        report.speech = SpeechBench.measure(runs: plan.speechRuns)
        progress("voice follow: the GPL passage through the recogniser, the aligner and the driver")
        report.follow = FollowBench.measure()
        progress("recording load: prompter at 60 Hz, preview at 30 fps, recorder 1080p30 from YUYV")
        report.recordingLoad = RecordingLoadBench.measure(seconds: plan.recordingLoadSeconds, text: text)
        report.memory = .init(rigKiB: BenchEnvironment.peakResidentKiB(), pangoKiB: pangoPeak,
                              gstreamerKiB: gstreamerPeak)
        return report
    }
}
