import Foundation
import Prompter
import Testing
@testable import Kiosk
@testable import Stage

/// The real event loop on the headless backend: the app as `rig run` runs it, on a
/// manual clock, with no real device (a test that wants one says so), driven with
/// control requests and input events and checked on state and pixels.
@Suite(.serialized) struct KioskAppTests {
    private let clock = ManualClock(0)

    private func makeApp(script: String = String(repeating: "Read these words at a steady pace. ", count: 400),
                         overrides: [String] = [], devices: KioskDevices = []) throws -> KioskApp {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rig-kiosk-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("scripts"), withIntermediateDirectories: true)
        try Data(script.utf8).write(to: root.appendingPathComponent("scripts/Take.txt"))
        let loaded = ConfigLoader.load(text: "", name: "test", overrides: [
            "state.dir=\"\(root.path)\"", "control.socket=\"\(root.path)/control.sock\"",
            "displays.headless_width=480", "displays.headless_height=270", "prompter.font_size=24",
        ] + overrides)
        #expect(loaded.errors.isEmpty, "\(loaded.errors)")
        let app = try KioskApp(config: loaded.config, configProblems: [], backend: .headless, devices: devices,
                               clock: clock.now)
        app.start()
        return app
    }

    private func loop(_ app: KioskApp) -> ManualLoop { ManualLoop(clock: clock, loop: app.loop) }

    /// Runs the loop until `condition` holds, failing after a deadline of loop time.
    private func run(_ app: KioskApp, seconds: Double = 10, sourceLocation: SourceLocation = #_sourceLocation,
                     until condition: () -> Bool) {
        loop(app).run(seconds: seconds, sourceLocation: sourceLocation, until: condition)
    }

    private func flips(_ app: KioskApp, _ role: DisplayRole) -> UInt64 { app.displaysBackend.status(of: role).flips }

    @Test func opensTheScriptAndShowsBothDisplays() throws {
        let app = try makeApp()
        defer { app.shutdown() }
        run(app) { flips(app, .inner) > 0 && flips(app, .outer) > 0 }
        #expect(app.stage.controller.script?.id == "Take.txt")
        #expect(app.stage.controller.engine.maxOffset > 1000)
        let status = app.stage.status(at: app.loop.clock())
        #expect(status["prompter"]?["state"] == "stopped")
        #expect(status["displays"]?["outer"]?["presenting"] == true)
    }

    @Test func playScrollsAtTheSpeedAndPauseStopsFlipping() throws {
        let app = try makeApp()
        defer { app.shutdown() }
        run(app) { flips(app, .outer) > 0 }
        _ = app.stage.handle(.play)
        let start = flips(app, .outer)
        run(app) { flips(app, .outer) > start + 20 }
        let offset = app.stage.controller.engine.offset(at: app.loop.clock())
        #expect(offset > 5)
        _ = app.stage.handle(.pause)
        // Once the 0.3 s ramp is done no frame changes: nothing is flipped.
        loop(app).advance(by: 0.3 + 1.0 / 30)
        let paused = flips(app, .outer)
        loop(app).advance(by: 0.5)
        #expect(flips(app, .outer) == paused)
    }

    @Test func aTapPausesAtItsOwnTimestampAndShowsTheBadge() throws {
        let app = try makeApp()
        defer { app.shutdown() }
        run(app) { flips(app, .outer) > 0 }
        _ = app.stage.handle(.play)
        loop(app).advance(by: 1)
        let tapTime = app.loop.clock() - 0.05
        let expected = app.stage.controller.engine.offset(at: tapTime)
        app.handle(.outerTap(time: tapTime))
        #expect(app.stage.controller.engine.state == .paused)
        #expect(app.stage.controller.pausedByTap)
        // The frame that shows the pause ends the tap's latency; then the text rests.
        run(app) { app.stage.tapLatency.summary.count == 1 && app.stage.shown[.outer]?.showsTapPause == true }
        loop(app).advance(by: 0.5)
        #expect(abs(app.stage.controller.engine.offset(at: app.loop.clock()) - expected) < 0.01)
        #expect(app.stage.shown[.outer]?.showsTapPause == true)
        let latency = app.stage.tapLatency.summary
        #expect(latency.count == 1)
        // Measured from the tap's own time: a few frames, not seconds since boot.
        #expect((latency.medianMilliseconds ?? 10_000) < 1000)
        #expect(app.stage.status(at: app.loop.clock())["input"]?["taps"] == 1)
    }

    /// Issue 40's latency on the real loop and frame pacing: a controller's speed change,
    /// at eight phases of the 60 Hz frame, reaches the glass in at most two frames.
    @Test func aControllersSpeedChangeReachesTheGlassWithinTwoFrames() throws {
        let app = try makeApp()
        defer { app.shutdown() }
        run(app) { flips(app, .outer) > 0 }
        let shuttle = ControllerReading(id: "event9", name: "ShuttleXpress", kind: .shuttle, axis: "ring -7…7")
        app.stage.handle(.controller(.added(shuttle)))
        for step in 0..<8 {
            loop(app).advance(by: 0.5 + Double(step) / 8 / 60)
            var moved = shuttle
            moved.speed = step % 2 == 0 ? 120 : 60
            app.stage.handle(.controller(.moved(moved, time: app.loop.clock())))
            run(app) { app.stage.handControllers.latency.summary.count == step + 1 }
        }
        let latency = app.stage.handControllers.latency.summary
        #expect(app.stage.controller.engine.state == .playing)
        #expect((latency.maximumMilliseconds ?? 1000) <= 2000.0 / 60 + 0.5, "\(latency)")
        #expect(app.stage.status(at: app.loop.clock())["latency"]?["controller_to_flip"]?["count"] == 8)
    }

    @Test func keysDriveTheEngine() throws {
        let app = try makeApp()
        defer { app.shutdown() }
        let now = app.loop.clock()
        app.handle(.key(KeyPress(code: 0, action: .playPause, time: now)))
        app.handle(.key(KeyPress(code: 0, action: .faster, time: now)))
        #expect(app.stage.controller.engine.state == .playing)
        #expect(app.stage.controller.engine.speed == 70)
        app.handle(.key(KeyPress(code: 0, action: .stop, time: now + 1)))
        #expect(app.stage.controller.engine.state == .stopped)
    }

    @Test func mirroringTheTextLeavesTheInnerDisplayAlone() throws {
        let app = try makeApp()
        defer { app.shutdown() }
        let headless = try #require(app.displaysBackend as? HeadlessBackend)
        run(app) { flips(app, .inner) > 0 && flips(app, .outer) > 0 }
        let innerBefore = try #require(headless.screen(.inner)).ppm()
        let outerBefore = try #require(headless.screen(.outer)).ppm()
        let outerFlips = flips(app, .outer)
        #expect(app.stage.handle(.set(key: "prompter.mirror", value: "true")) == .success())
        run(app) { flips(app, .outer) > outerFlips }
        #expect(try #require(headless.screen(.outer)).ppm() != outerBefore)
        #expect(try #require(headless.screen(.inner)).ppm() == innerBefore)
    }

    @Test func outerOffIsReportedAndBlankedButTheInnerGoesOn() throws {
        let app = try makeApp()
        defer { app.shutdown() }
        run(app) { flips(app, .outer) > 0 }
        #expect(app.stage.handle(.outer(false)) == .success())
        let status = app.stage.status(at: app.loop.clock())
        #expect(status["displays"]?["outer"]?["enabled"] == false)
        #expect(status["displays"]?["outer"]?["presenting"] == false)
        #expect(status["displays"]?["inner"]?["presenting"] == true)
    }

    @Test func aBrokenConfigStillComesUpWithItsErrorsOnTheBanner() throws {
        let problem = ConfigProblem.error(ConfigPlace(file: "rig.toml", line: 3, column: 9), "prompter.speed must be between 10 and 300, found 500")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rig-kiosk-\(UUID().uuidString.prefix(8))")
        var config = RigConfig()
        config.state.dir = root.path
        config.control.socket = root.path + "/control.sock"
        config.displays.headlessWidth = 480
        config.displays.headlessHeight = 270
        let app = try KioskApp(config: config, configProblems: [problem], backend: .headless, devices: [],
                               clock: clock.now)
        app.start()
        defer { app.shutdown() }
        run(app) { flips(app, .inner) > 0 }
        #expect(app.stage.problems.lines.contains("rig.toml:3:9: prompter.speed must be between 10 and 300, found 500"))
        let banner = try #require((app.displaysBackend as? HeadlessBackend)?.screen(.inner))
        // The banner's red runs along the bottom of the inner display.
        #expect(banner.pixel(x: 2, y: 268) == 0x7a1f1f)
    }

    @Test func restartResumesTheSameScriptAtTheSameWord() throws {
        let app = try makeApp()
        run(app) { flips(app, .outer) > 0 }
        _ = app.stage.handle(.play)
        loop(app).advance(by: 1.5)
        _ = app.stage.handle(.pause)
        let stoppedAt = app.stage.controller.engine.offset(at: app.loop.clock() + 1)
        app.shutdown()
        let again = try KioskApp(config: app.config, configProblems: [], backend: .headless, devices: [],
                                 clock: clock.now)
        again.start()
        defer { again.shutdown() }
        run(again) { flips(again, .outer) > 0 }
        #expect(again.stage.controller.script?.id == "Take.txt")
        // Within one line of text (24 px at this size, times the line spacing).
        #expect(abs(again.stage.controller.engine.offset(at: again.loop.clock()) - stoppedAt) < 32)
    }
}

extension KioskAppTests {
    @Test func framingModeShowsTheCameraStateAndAnUprightCue() throws {
        // The camera is opened for real, at a path where there is none.
        let app = try makeApp(overrides: ["camera.device=\"/dev/rig-no-such-camera\""], devices: .camera)
        defer { app.shutdown() }
        let headless = try #require(app.displaysBackend as? HeadlessBackend)
        run(app) { flips(app, .outer) > 0 }
        #expect(app.stage.handle(.mode("framing")) == .success())
        #expect(app.stage.handle(.cue("S")) == .success())
        let before = flips(app, .outer)
        run(app) { flips(app, .outer) > before && app.camera?.state.previewMessage == "Camera unavailable" }
        let outer = try #require(headless.screen(.outer))
        // The cue badge's yellow at the centre, its white border around it.
        #expect(outer.pixel(x: 240 - 40, y: 135 - 40) == 0xffd60a)
        #expect(app.stage.status(at: app.loop.clock())["camera"]?["state"] == "unavailable")
        if ProcessInfo.processInfo.environment["RIG_DUMP"] != nil {
            try Data(outer.ppm()).write(to: URL(fileURLWithPath: "/tmp/framing-outer.ppm"))
            try Data(try #require(headless.screen(.inner)).ppm()).write(to: URL(fileURLWithPath: "/tmp/framing-inner.ppm"))
        }
    }
}

extension KioskAppTests {
    @Test func theHangTriggerIsRefusedWithoutItsEnvironmentVariable() throws {
        let app = try makeApp()
        defer { app.shutdown() }
        let reply = app.stage.handle(.hang)
        #expect(reply.body["ok"] == false)
        #expect(reply.body["error"]?.stringValue?.contains("RIG_TEST_HANG_TRIGGER=1") == true)
    }
}

extension KioskAppTests {
    @Test func aLongScriptIsLaidOutInSlicesAndTheEndBecomesExact() throws {
        let app = try makeApp(script: String(repeating: "A long script of many words, laid out bit by bit. ", count: 3000))
        defer { app.shutdown() }
        let layout = try #require(app.stage.renderer.readingText?.layout)
        // Only the first screens were laid out before the first frame.
        #expect(!layout.isComplete)
        run(app) { layout.isComplete }
        run(app) { app.stage.controller.engine.maxOffset == layout.totalHeight }
    }

    /// A loop too busy to compose a frame on time (a starved host) handles a play
    /// before the overdue compose runs: the frame is drawn for a vblank after the play,
    /// so the text moves and keeps moving, rather than one frame drawn for the vblank
    /// before the play ending the display's frames with the text at rest.
    @Test func aPlayHandledBeforeAnOverdueComposeMovesTheText() throws {
        let app = try makeApp()
        defer { app.shutdown() }
        let headless = try #require(app.displaysBackend as? HeadlessBackend)
        run(app) { flips(app, .outer) > 0 && headless.isSettled(.outer) }
        headless.requestFrame(.outer)
        clock.set(clock.now() + 0.5)
        _ = app.stage.handle(.play)
        loop(app).advance(by: 1.5)
        let drawn = try #require(app.stage.renderer.drawnOffsetRow(.outer))
        let offset = app.stage.controller.engine.offset(at: app.loop.clock())
        #expect(offset > 20)
        #expect(abs(Double(drawn) - offset) < 10, "drawn row \(drawn), engine at \(offset)")
    }
}
