import Foundation
import Prompter
import Render

/// The inner display's console while the prompter plays: the operator view with
/// its upright copy of the script, progress and controls, built and composed for
/// every frame on the same thread as the outer frame. Driven like the kiosk drives
/// it (SceneRenderer with a ConsoleController), mid-scroll at 180 px/s.
final class ConsoleFrameBench {
    let display: BenchReport.Display
    private let canvas: Canvas
    private let renderer: SceneRenderer
    private let controller: PrompterController
    private let console: ConsoleController
    private let stateDirectory: URL
    private var time = 1000.0

    /// The outer display is 1920x1080 with 120 px text, as in the composition cases.
    init(display: BenchReport.Display, text: String) throws {
        self.display = display
        canvas = try Canvas(size: PixelSize(width: display.width, height: display.height))
        stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("rig-bench-\(getpid())")
        renderer = SceneRenderer(config: RigConfig())
        if let problem = renderer.fontProblem { throw BenchSetupError(problem) }
        controller = PrompterController(library: nil, stateDirectory: stateDirectory,
                                        defaults: OuterFrameBench.settings(sizePx: 120, transform: .identity),
                                        wordsPerMinute: ReadingTime.defaultWordsPerMinute)
        controller.openText(.init(id: "bench", title: "Bench script", text: text,
                                  wordCount: ReadingTime.wordCount(text), repaired: false), at: time)
        let outer = PixelSize(width: 1920, height: 1080)
        let change = renderer.relayout(controller: controller, outerSize: outer)
        controller.layoutChanged(at: time, maxOffset: change.maxOffset, mapOffset: change.mapOffset)
        while renderer.continueLayout(lines: 10_000) == nil {}
        controller.layoutChanged(at: time, maxOffset: renderer.continueLayout(lines: 0) ?? 0) { $0 }
        console = ConsoleController(controller: controller)
        controller.play(at: time - 1)
        controller.seek(to: controller.engine.maxOffset / 2, at: time)
    }

    deinit { try? FileManager.default.removeItem(at: stateDirectory) }

    /// One inner frame for the next vblank.
    @inline(never)
    func composeFrame() {
        guard let base = canvas.pixels.baseAddress else { return }
        let target = FrameTarget(width: display.width, height: display.height, stride: display.width * 4,
                                 pixels: UnsafeMutableRawPointer(base), presentationTime: time, mustDraw: true)
        var outer = DisplayStatus(connector: "bench-outer")
        outer.available = true
        outer.mode = VideoMode(width: 1920, height: 1080, refreshMillihertz: 60_000)
        _ = renderer.draw(.inner, into: target, controller: controller, outerPresenting: true,
                          inner: .init(console: console, outer: outer, elapsed: time - 999, cameraState: nil))
    }

    func advance() { time += OuterFrameBench.frameInterval }
}
