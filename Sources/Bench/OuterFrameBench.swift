import Kiosk
import Markup
import Prompter
import Render
import Stage

/// The outer display in prompter mode, driven as the kiosk drives it: the stage
/// draws the frame for a presentation time into the display's buffer, the engine
/// scrolls at 180 px/s (or the case's speed), and each frame is one 60 Hz vblank later. The display is
/// double-buffered as the kiosk's DRM heads are: each buffer holds the frame before
/// last, and only what changed since is drawn. One instance per
/// (display, text size); a transform change goes through the same settings path as
/// the operator's M/F/R keys (a quarter turn lays the text out again, untimed).
final class OuterFrameBench {
    /// The product's reading defaults (ReadingSettings.standard) except size,
    /// transform and speed; the Pango peer uses the same margin and line spacing.
    static let marginPercent = ReadingSettings.standard.margin
    static let lineSpacing = ReadingSettings.standard.lineSpacing
    /// 180 px/s at 60 Hz: 3 px a frame, so no frame repeats the one before.
    static let speed = 180
    static let frameInterval = 1.0 / 60

    let display: BenchReport.Display
    let speed: Int
    private let buffers: [Canvas]
    private var next = 0
    let rig: ManualClockStage
    let sizePx: Int
    private var time = 0.0
    /// The share of the display's pixels the frames drew, summed over frames.
    private(set) var drawnShare = 0.0
    private(set) var frames = 0

    /// The buffer drawn last.
    var canvas: Canvas { buffers[(next + buffers.count - 1) % buffers.count] }

    static func settings(sizePx: Int, transform: BenchReport.Transform, speed: Int = speed) -> ReadingSettings {
        ReadingSettings(fontSize: sizePx, lineSpacing: lineSpacing, margin: marginPercent,
                        mirror: transform.mirror, flip: transform.flip,
                        rotation: TextRotation(snapping: transform.rotation), speed: speed)
    }

    /// Opens the script: what the kiosk does before the first frame.
    init(display: BenchReport.Display, text: String, markup: ReadingMarkup = .none, sizePx: Int,
         transform: BenchReport.Transform, speed: Int = OuterFrameBench.speed, fonts: FontLibrary) throws {
        self.display = display
        self.speed = speed
        self.sizePx = sizePx
        let size = PixelSize(width: display.width, height: display.height)
        buffers = [try Canvas(size: size), try Canvas(size: size)]
        var settings = RigStage.Settings(outerSize: size)
        settings.readingDefaults = Self.settings(sizePx: sizePx, transform: transform, speed: speed)
        rig = ManualClockStage(settings: settings, innerSize: size, fonts: fonts)
        rig.open(id: "bench", title: "bench", text: text, markup: markup)
    }

    var block: ChunkedTextBlock? { rig.stage.renderer.readingText?.block }

    func setTransform(_ transform: BenchReport.Transform) throws {
        let settings = Self.settings(sizePx: sizePx, transform: transform, speed: speed)
        rig.controller.updateSettings { $0 = settings }
    }

    /// Mid-scroll at full speed: playing since a second ago (ramp done), then moved
    /// to the middle of the script.
    func scrollToMiddle() {
        rig.finishLayout()
        rig.controller.play(at: time - 1)
        rig.controller.seek(to: rig.controller.engine.maxOffset / 2, at: time)
    }

    /// One outer frame for the next vblank: what the kiosk composes while scrolling.
    /// Never inlined: bench/callgrind.sh counts instructions inside it only.
    @inline(never)
    func composeFrame() {
        // Each buffer's first frame is drawn whole, as after a modeset.
        let report = rig.frame(.outer, at: time, into: buffers[next], mustDraw: frames < buffers.count)
        next = (next + 1) % buffers.count
        drawnShare += Double(report.pixelsDrawn) / Double(display.width * display.height)
        frames += 1
    }

    func advance() { time += Self.frameInterval }
}
