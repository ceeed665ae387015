import Kiosk
import Prompter
import Render
import Stage

/// The inner display's console while the prompter plays: the operator view with
/// its upright copy of the script, progress and controls, built and composed for
/// every frame on the same thread as the outer frame. Driven as the kiosk drives
/// it (the same stage as the outer frames), mid-scroll at 180 px/s, into two
/// buffers in turn as a double-buffered display: each holds the frame before last,
/// and only what changed since is drawn.
final class ConsoleFrameBench {
    let display: BenchReport.Display
    private let buffers: [Canvas]
    private var next = 0
    private let rig: ManualClockStage
    private var time = 1000.0
    /// The share of the display's pixels the frames drew, summed over frames.
    private(set) var drawnShare = 0.0
    private(set) var frames = 0

    /// The outer display is 1920x1080 with 120 px text, as in the composition cases.
    init(display: BenchReport.Display, text: String) throws {
        self.display = display
        let size = PixelSize(width: display.width, height: display.height)
        buffers = [try Canvas(size: size), try Canvas(size: size)]
        let fonts = RigStage.loadFonts()
        guard let library = fonts.fonts else { throw BenchSetupError(fonts.problem ?? "fonts: none") }
        var settings = RigStage.Settings(outerSize: PixelSize(width: 1920, height: 1080))
        settings.readingDefaults = OuterFrameBench.settings(sizePx: 120, transform: .identity)
        rig = ManualClockStage(settings: settings, innerSize: size, fonts: library, start: time)
        rig.open(id: "bench", title: "Bench script", text: text)
        rig.finishLayout()
        rig.controller.play(at: time - 1)
        rig.controller.seek(to: rig.controller.engine.maxOffset / 2, at: time)
    }

    /// One inner frame for the next vblank.
    @inline(never)
    func composeFrame() {
        let report = rig.frame(.inner, at: time, into: buffers[next], mustDraw: frames < buffers.count)
        next = (next + 1) % buffers.count
        drawnShare += Double(report.pixelsDrawn) / Double(buffers[0].width * buffers[0].height)
        frames += 1
    }

    func advance() { time += OuterFrameBench.frameInterval }
}
