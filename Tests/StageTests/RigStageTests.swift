import Foundation
import Prompter
import Render
import Testing
@testable import Stage

/// The stage's two sides: events in, frames and "a frame is wanted" out, with a
/// report of what each frame showed.
@Suite struct RigStageTests {
    private func playing() throws -> ManualClockStage {
        let replay = ManualClockStage(settings: RigStage.Settings(outerSize: PixelSize(width: 320, height: 180)),
                                 innerSize: PixelSize(width: 320, height: 180), fonts: try FontLibrary())
        replay.open(id: "t", title: "T", text: String(repeating: "Words to read at a steady pace. ", count: 50))
        replay.finishLayout()
        replay.controller.play(at: 0)
        return replay
    }

    /// A frame into `canvas` that is drawn only if something changed, as a backend asks.
    private func frame(_ replay: ManualClockStage, _ role: DisplayRole, at time: Double, into canvas: Canvas) -> FrameReport {
        let target = FrameTarget(width: canvas.width, height: canvas.height, stride: canvas.width * 4,
                                 pixels: UnsafeMutableRawPointer(canvas.pixels.baseAddress!), presentationTime: time,
                                 mustDraw: false)
        return replay.stage.frame(role, at: time, into: target)
    }

    @Test func aChangeWantsBothDisplaysAndAnUnchangedFrameIsNotDrawn() throws {
        let replay = try playing()
        var wanted: [DisplayRole] = []
        replay.stage.output = ClosureStageOutput { wanted.append($0) }
        replay.controller.pause(at: 0.5)
        #expect(Set(wanted) == [.inner, .outer])
        let canvas = try Canvas(size: replay.outerSize)
        #expect(frame(replay, .outer, at: 2, into: canvas).changed)
        // Paused and the ramp long over: the same pixels, nothing drawn, nothing wanted.
        wanted = []
        #expect(!frame(replay, .outer, at: 3, into: canvas).changed)
        #expect(wanted.isEmpty)
    }

    /// The frame's input is what it shows, as values: the outer display's flip counters
    /// (which the console shows none of) draw nothing on the inner display; its flags
    /// and the wall clock's second do.
    @Test func theInnerFrameChangesWithWhatItShowsAndNothingElse() throws {
        let replay = try playing()
        // The console's wall clock stands still unless the test moves it.
        var wall = Date(timeIntervalSince1970: 1_800_000_000)
        replay.stage.wallClock = { wall }
        replay.controller.pause(at: 0)
        let canvas = try Canvas(size: replay.innerSize)
        #expect(frame(replay, .inner, at: 2, into: canvas).changed)
        #expect(!frame(replay, .inner, at: 2.001, into: canvas).changed)
        var outer = ManualClockStage.connectedDisplay("outer", replay.outerSize)
        outer.flips = 500
        outer.lastFlip = FlipStamp(time: 2, sequence: 500)
        replay.stage.handle(.display(.outer, outer))
        #expect(!frame(replay, .inner, at: 2.002, into: canvas).changed, "the outer's flip count redrew the console")
        outer.enabled = false
        replay.stage.handle(.display(.outer, outer))
        #expect(frame(replay, .inner, at: 2.003, into: canvas).changed, "the outer turned off left the console as it was")
        #expect(!frame(replay, .inner, at: 2.004, into: canvas).changed)
        wall += 1
        #expect(frame(replay, .inner, at: 2.005, into: canvas).changed, "the clock's second ticked and the console did not")
    }

    /// The last frame of a motion, flipped only after the motion ended, is followed by
    /// one showing where the text stopped (it stayed short of it: the console's glide
    /// test under AddressSanitizer, whose frames ran late).
    @Test func aFrameFlippedAfterTheMotionEndedIsFollowedByOneWhereTheTextStopped() throws {
        let replay = try playing()
        replay.advance(to: 1)
        replay.controller.pause(at: 1)
        let engine = replay.controller.engine
        let rest = engine.offset(at: 5)
        #expect(engine.isMoving(at: 1) && rest - engine.offset(at: 1) >= 2, "still slowing down at 1 s")
        let canvas = try Canvas(size: replay.outerSize)
        #expect(frame(replay, .outer, at: 1, into: canvas).changed)
        let drawnRow = replay.stage.renderer.drawnOffsetRow(.outer)
        var wanted: [DisplayRole] = []
        replay.stage.output = ClosureStageOutput { wanted.append($0) }
        let late = 1.5
        #expect(!engine.isMoving(at: late))
        replay.stage.handle(.framePresented(.outer, FlipStamp(time: late, sequence: 1)))
        #expect(wanted == [.outer])
        #expect(frame(replay, .outer, at: late + 1.0 / 60, into: canvas).changed)
        #expect(replay.stage.renderer.drawnOffsetRow(.outer) == Int(rest.rounded()))
        #expect(replay.stage.renderer.drawnOffsetRow(.outer) != drawnRow)
        // That one was drawn at rest: its flip asks for nothing more.
        wanted = []
        replay.stage.handle(.framePresented(.outer, FlipStamp(time: late + 1.0 / 60, sequence: 2)))
        #expect(wanted.isEmpty)
    }

    @Test func theFrameShowingATapPauseEndsTheTapsLatencyAtItsFlip() throws {
        let replay = try playing()
        replay.advance(to: 1)
        replay.stage.handle(.outerTap(time: 1))
        let canvas = try Canvas(size: replay.outerSize)
        let flip = 1 + 1.0 / 60
        let report = frame(replay, .outer, at: flip, into: canvas)
        #expect(report.changed && report.showsTapPause && report.cameraFrame == nil)
        replay.stage.handle(.framePresented(.outer, FlipStamp(time: flip, sequence: 1)))
        let latency = replay.stage.tapLatency.summary
        #expect(latency.count == 1)
        #expect(abs((latency.medianMilliseconds ?? 0) - 1000.0 / 60) < 1)
        #expect(replay.stage.shown[.outer]?.showsTapPause == true)
    }

    @Test func theInnerFrameReportsTheConsolesControls() throws {
        let replay = try playing()
        let report = try #require(Optional(replay.frame(.inner, at: 1, into: try Canvas(size: replay.innerSize))))
        #expect(report.console?.targets["prompter:play"] != nil)
        #expect(replay.stage.console.targets["prompter:play"] != nil)
    }
}
