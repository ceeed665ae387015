import Kiosk
import Prompter
import Render
import Stage

/// The inner display's console while the prompter plays: the operator view with
/// its upright copy of the script, progress and controls, built and composed for
/// every frame on the same thread as the outer frame. Driven as the kiosk drives
/// it (the same stage as the outer frames), mid-scroll at 180 px/s.
final class ConsoleFrameBench {
    let display: BenchReport.Display
    private let canvas: Canvas
    private let rig: ManualClockStage
    private var time = 1000.0

    /// The outer display is 1920x1080 with 120 px text, as in the composition cases.
    init(display: BenchReport.Display, text: String) throws {
        self.display = display
        canvas = try Canvas(size: PixelSize(width: display.width, height: display.height))
        let fonts = RigStage.loadFonts()
        guard let library = fonts.fonts else { throw BenchSetupError(fonts.problem ?? "fonts: none") }
        var settings = RigStage.Settings(outerSize: PixelSize(width: 1920, height: 1080))
        settings.readingDefaults = OuterFrameBench.settings(sizePx: 120, transform: .identity)
        rig = ManualClockStage(settings: settings, innerSize: canvas.size, fonts: library, start: time)
        rig.open(id: "bench", title: "Bench script", text: text)
        rig.finishLayout()
        rig.controller.play(at: time - 1)
        rig.controller.seek(to: rig.controller.engine.maxOffset / 2, at: time)
    }

    /// One inner frame for the next vblank.
    @inline(never)
    func composeFrame() {
        rig.frame(.inner, at: time, into: canvas)
    }

    func advance() { time += OuterFrameBench.frameInterval }
}
