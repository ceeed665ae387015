import Foundation
import Kiosk
import Render
import Stage

/// `--case`: set one case up, run its frame `frames` times, print one line. Under
/// callgrind, bench/callgrind.sh runs each case at two frame counts and divides the
/// difference, so set-up cost cancels out.
enum BenchCaseRunner {
    static func run(_ benchCase: BenchCase, frames: Int, text: String) -> Int32 {
        do {
            switch benchCase {
            case let .floor(display, uncached):
                // The median is what a compose case's median compares with.
                var floor = FloorBench(display: display, uncached: uncached)
                let measured = floor.measure(frames: frames)
                BenchCommand.printError(String(format: "median %.3f ms", measured.medianMs ?? 0))
            case let .compose(display, size, transform, speed):
                let fonts = try ProducerBenches.fonts().get()
                let outer = try OuterFrameBench(display: display, text: text, sizePx: size,
                                                transform: transform, speed: speed, fonts: fonts)
                outer.scrollToMiddle()
                var pieces = 0
                var samples: [Double] = []
                for _ in 0..<frames {
                    let before = outer.block?.rasterizedPieceCount ?? 0
                    let start = BenchClock.nanoseconds()
                    outer.composeFrame()
                    samples.append(Double(BenchClock.nanoseconds() - start) / 1e6)
                    pieces += (outer.block?.rasterizedPieceCount ?? 0) - before
                    outer.advance()
                }
                BenchCommand.printError("pieces rasterized by the frames: \(pieces), cached at the end: "
                                        + "\((outer.block?.cachedBytes ?? 0) >> 20) MiB")
                // The slowest frames are those that rasterize text the cache lacks (after the
                // seek, every row phase's first frame): what could miss a vblank.
                let slow = samples.enumerated().filter { $0.element > 4 }
                BenchCommand.printError(String(format: "p99 %.3f ms, slowest %.3f ms; %d frames over 4 ms (%@)",
                                               BenchMeasurement(samplesMs: samples).summary?.p99Ms ?? 0,
                                               samples.max() ?? 0, slow.count,
                                               slow.prefix(8).map { "#\($0.offset)" }.joined(separator: " ")))
                // The seek's first frames rasterize a screen per row phase; after them,
                // only pieces scrolling in.
                BenchCommand.printError(String(format: "first 20 frames %.1f ms in all; after them the slowest %.3f ms, "
                                               + "%d over 4 ms", samples.prefix(20).reduce(0, +),
                                               samples.dropFirst(20).max() ?? 0,
                                               slow.filter { $0.offset >= 20 }.count))
                BenchCommand.printError(String(format: "median %.3f ms, %.0f %% of the display drawn per frame",
                                               BenchMeasurement(samplesMs: samples).medianMs ?? 0,
                                               outer.drawnShare / Double(max(1, outer.frames)) * 100))
                // To see what was measured: the last frame as a PNG.
                if let path = ProcessInfo.processInfo.environment["RIG_BENCH_PNG"] {
                    try outer.canvas.writePNG(path: path)
                }
            case let .layout(size):
                let fonts = try ProducerBenches.fonts().get()
                let width = BenchReport.Display.fullHD.width
                let column = Double(width - 2 * ProducerBenches.margin(forColumn: width))
                for _ in 0..<frames {
                    try TextLayout(text: text, style: ProducerBenches.style(sizePx: size), columnWidth: column,
                                   fonts: fonts).layoutAll()
                }
            case .camera:
                let camera = try CameraBench()
                for _ in 0..<frames { try camera.convertFrame() }
            case .speech:
                // `frames` utterances of the instruction; the figures on stderr.
                let figures = SpeechBench.measure(runs: max(1, frames))
                BenchCommand.printError(BenchReportText.speechLines(figures).joined(separator: "\n"))
            case .recordingLoad:
                let figures = RecordingLoadBench.measure(seconds: Double(max(30, frames)) / RecordingLoadBench.cameraFPS,
                                                         text: text)
                BenchCommand.printError(RecordingLoadBench.lines(figures).joined(separator: "\n"))
                if case let .failure(error) = figures { throw error }
            case .follow:
                let figures = FollowBench.measure()
                BenchCommand.printError(FollowBench.lines(figures).joined(separator: "\n"))
                if case let .failure(error) = figures { throw error }
            case let .smoothness(display):
                let fonts = try ProducerBenches.fonts().get()
                print(try ScrollSmoothnessTable.measure(text: text, fonts: fonts, frames: frames, display: display)
                    .joined(separator: "\n"))
            case .followRigs:
                print(FollowRigsBench.lines(try FollowRigsBench.measure(text: text, frames: frames)).joined(separator: "\n"))
            case let .kioskSmoothness(display, transform):
                let rows = try KioskSmoothnessBench.measure(text: text, frames: frames, display: display,
                                                            transform: transform)
                print(KioskSmoothnessBench.lines(rows, frames: frames).joined(separator: "\n"))
            case .markup:
                let fonts = try ProducerBenches.fonts().get()
                let plan = BenchPlan(quick: frames < 60)
                print(MarkupBench.lines(MarkupBench.measure(text: text, plan: plan, fonts: fonts)).joined(separator: "\n"))
            case let .console(display):
                let console = try ConsoleFrameBench(display: display, text: text)
                var slowest = (ms: 0.0, frame: 0)
                var samples: [Double] = []
                for frame in 0..<frames {
                    let start = BenchClock.nanoseconds()
                    console.composeFrame()
                    let ms = Double(BenchClock.nanoseconds() - start) / 1e6
                    if ms > slowest.ms { slowest = (ms, frame) }
                    samples.append(ms)
                    console.advance()
                }
                BenchCommand.printError(String(format: "slowest frame: %.2f ms (frame %d)", slowest.ms, slowest.frame))
                print(String(format: "median %.3f ms, pixels drawn %.0f %% of the display",
                             BenchMeasurement(samplesMs: samples).medianMs ?? 0,
                             console.drawnShare / Double(max(1, console.frames)) * 100))
            }
        } catch {
            BenchCommand.printError("rig bench: case unavailable: \(error)")
            return 2
        }
        print(benchCase == .follow ? "case done: the passage heard once" : "case done: \(frames) frames")
        return 0
    }
}
