import Markup
import Prompter
import Render

/// A stage on a manual clock with both displays connected and on: what `rig snapshot`,
/// `rig bench` and the scene tests drive. They replay what the kiosk's loop would
/// see (the displays arrive, a script opens, play is pressed, time passes with its
/// timers) and take frames, so their pixels are the kiosk's.
package final class ManualClockStage {
    package let clock: ManualStageClock
    package let stage: RigStage
    package let innerSize: PixelSize
    package var outerSize: PixelSize { stage.settings.outerSize }

    /// Both displays connected, on and in the given modes (the outer's from `settings`).
    package init(settings: RigStage.Settings, innerSize: PixelSize, fonts: FontLibrary?, start: Double = 0) {
        clock = ManualStageClock(at: start)
        stage = RigStage(settings: settings, fonts: fonts, clock: clock)
        self.innerSize = innerSize
        stage.handle(.display(.inner, Self.connectedDisplay("inner", innerSize)))
        stage.handle(.display(.outer, Self.connectedDisplay("outer", settings.outerSize)))
    }

    /// A display as a connected monitor in this mode at 60 Hz reports itself.
    package static func connectedDisplay(_ connector: String, _ size: PixelSize) -> DisplayStatus {
        var status = DisplayStatus(connector: connector)
        status.connected = true
        status.available = true
        status.mode = VideoMode(width: size.width, height: size.height, refreshMillihertz: 60_000)
        return status
    }

    package var controller: PrompterController { stage.controller }

    /// Opens text that is not in a library (`rig snapshot --script FILE`), now.
    package func open(id: String, title: String, text: String, repaired: Bool = false, markers: [ScriptMarker] = [],
                      markup: ReadingMarkup = .none) {
        controller.openText(.init(id: id, title: title, text: text, wordCount: ReadingTime.wordCount(text, markup: markup),
                                  repaired: repaired, markers: markers, markup: markup), at: clock.now)
    }

    /// Runs the timers due by `time` (the layout's slices among them) and stands there.
    package func advance(to time: Double) { clock.advance(to: time) }

    /// Lays the open script out to its end now, as the slices would by and by.
    package func finishLayout() {
        while stage.renderer.readingText?.layout?.isComplete == false { advance(to: clock.now) }
        advance(to: clock.now)
    }

    /// `role`'s whole frame for `time` drawn into `canvas` (which must have its size).
    /// `mustDraw` false: `canvas` holds the frame last drawn into it, as a display's
    /// buffer does (the console then redraws only what changed), and an unchanged
    /// frame is not drawn.
    @discardableResult
    package func frame(_ role: DisplayRole, at time: Double, into canvas: Canvas, mustDraw: Bool = true) -> FrameReport {
        guard let base = canvas.pixels.baseAddress else { return FrameReport(role: role, time: time) }
        let target = FrameTarget(width: canvas.width, height: canvas.height, stride: canvas.width * 4,
                                 pixels: UnsafeMutableRawPointer(base), presentationTime: time, mustDraw: mustDraw)
        return stage.frame(role, at: time, into: target)
    }

    /// `role`'s frame for `time` in a new canvas of the display's size.
    package func canvas(_ role: DisplayRole, at time: Double) throws(ImageError) -> Canvas {
        let canvas = try Canvas(size: role == .outer ? outerSize : innerSize)
        frame(role, at: time, into: canvas)
        return canvas
    }
}
