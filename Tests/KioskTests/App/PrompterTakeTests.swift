import Foundation
import Prompter
import Testing
@testable import Kiosk
@testable import Stage

/// A prompter take through the headless kiosk on a manual clock: `rig ctl record
/// start`, the countdown, REC on both displays, Stop, the file and its metadata.
/// Frames come from a fake source, as the capture thread would hand them over.
@Suite(.serialized) struct PrompterTakeTests {
    private let clock = ManualClock(0)
    private let pool = CameraFramePool()

    private func makeApp(countdown: Int = 3) throws -> (KioskApp, String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rig-take-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("scripts"), withIntermediateDirectories: true)
        let script = String(repeating: "Read these words at a steady pace. ", count: 200)
        try Data(script.utf8).write(to: root.appendingPathComponent("scripts/Take.txt"))
        let loaded = ConfigLoader.load(text: "", name: "test", overrides: [
            "state.dir=\"\(root.path)\"", "control.socket=\"\(root.path)/control.sock\"",
            "displays.headless_width=480", "displays.headless_height=270", "prompter.font_size=24",
            "recording.min_free_mb=16", "recording.preset=\"ultrafast\"", "recording.countdown=\(countdown)",
        ])
        #expect(loaded.errors.isEmpty, "\(loaded.errors)")
        let app = try KioskApp(config: loaded.config, configProblems: [], backend: .headless, devices: [],
                               clock: clock.now)
        app.start()
        return (app, root.path + "/recordings")
    }

    /// One 64x48 frame stamped now, to the recorder's tap and to the stage.
    private func frame(_ app: KioskApp, sequence: UInt32) {
        let memory = pool.take(bytes: 64 * 48 * 4)
        memory.start.initializeMemory(as: UInt8.self, repeating: 90, count: 64 * 48 * 4)
        let frame = CameraFrame(format: .xrgb, width: 64, height: 48, bytesPerLine: 256, sequence: sequence,
                                timestamp: clock.now(), memory: memory, pool: pool)
        app.recording?.tap.offer(frame)
        app.stage.handle(.cameraFrame(frame))
    }

    /// Moves the loop's time at 30 frames a second, delivering each frame.
    private func stream(_ app: KioskApp, seconds: Double, from sequence: inout UInt32) {
        let loop = ManualLoop(clock: clock, loop: app.loop)
        let end = clock.now() + seconds
        while clock.now() < end - 1e-9 {
            sequence += 1
            frame(app, sequence: sequence)
            loop.advance(by: 1.0 / 30)
        }
    }

    private func recordingState(_ app: KioskApp) -> String? {
        app.stage.status(at: clock.now())["recording"]?["state"]?.stringValue
    }

    private static func hasRed(_ screen: HeadlessFramebuffer, x: Range<Int>, y: Range<Int>) -> Bool {
        y.contains { row in x.contains { screen.pixel(x: $0, y: row) == 0xe5201c } }
    }

    @Test func countdownThenRecordingThenStopWritesTheTakeWithItsScript() throws {
        let (app, folder) = try makeApp()
        defer { app.shutdown() }
        let headless = try #require(app.displaysBackend as? HeadlessBackend)
        var sequence: UInt32 = 0
        stream(app, seconds: 0.5, from: &sequence)
        #expect(app.stage.handle(.play) == .success())
        let reply = app.stage.handle(.record(start: true))
        #expect(reply.body["state"] == "countdown")
        let startedAt = clock.now()
        stream(app, seconds: 1.5, from: &sequence)
        #expect(recordingState(app) == "countdown")
        let counting = try #require(headless.screen(.outer))
        // The countdown's dark disc in the middle of the talent's display, no REC yet.
        #expect(counting.pixel(x: 240, y: 100) == 0x1c1c1e)
        #expect(!Self.hasRed(counting, x: 0..<60, y: 0..<40))
        stream(app, seconds: 1.6, from: &sequence)
        #expect(recordingState(app) == "recording")
        #expect(try #require(app.recording?.currentGeneration) == 1)
        stream(app, seconds: 1.0, from: &sequence)
        let outer = try #require(headless.screen(.outer)), inner = try #require(headless.screen(.inner))
        #expect(Self.hasRed(outer, x: 0..<60, y: 0..<40), "REC on the talent's display")
        #expect(Self.hasRed(inner, x: 380..<480, y: 0..<40), "REC on the operator's display")
        #expect(outer.pixel(x: 240, y: 100) != 0x1c1c1e, "the countdown has gone")
        #expect(app.stage.handle(.record(start: false)).body["state"] == "finishing")
        let deadline = Date().addingTimeInterval(20)
        while recordingState(app) != "idle" && Date() < deadline { app.loop.runOnce(timeout: 0.01) }
        #expect(recordingState(app) == "idle")
        let status = app.stage.status(at: clock.now())["recording"]?["last"]
        let path = try #require(status?["file"]?.stringValue)
        #expect(path.hasPrefix(folder + "/prompter-"))
        #expect(status?["message"] == .null)
        // About 1.1 s of frames after the countdown (its timer fires at 3.0).
        let frames = try #require(status?["frames"]?.numberValue)
        #expect((31...36).contains(Int(frames)))
        #expect(abs(startedAt + 3 - (clock.now() - (status?["duration"]?.numberValue ?? 0))) < 0.2)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath:
            path.replacingOccurrences(of: ".mp4", with: ".json")))) as? [String: Any]
        let notes = try #require(json?["annotations"] as? [String: String])
        #expect(notes["script"] == "Take.txt" && notes["kind"] == "prompter")
        let start = try #require(notes["position_start"].flatMap(Double.init))
        let end = try #require(notes["position_end"].flatMap(Double.init))
        #expect(start > 100 && end - start > 50, "read from \(start) to \(end) px at 60 px/s")
        #expect(notes["reading_settings"]?.contains("\"fontSize\":24") == true)
        stream(app, seconds: 0.2, from: &sequence)
        #expect(!Self.hasRed(try #require(headless.screen(.outer)), x: 0..<60, y: 0..<40), "REC gone after the take")
    }

    @Test func stopDuringTheCountdownRecordsNothing() throws {
        let (app, folder) = try makeApp()
        defer { app.shutdown() }
        var sequence: UInt32 = 0
        stream(app, seconds: 0.3, from: &sequence)
        #expect(app.stage.handle(.record(start: true)).body["state"] == "countdown")
        stream(app, seconds: 1, from: &sequence)
        #expect(app.stage.handle(.record(start: false)).body["cancelled"] == "countdown")
        stream(app, seconds: 3, from: &sequence)
        #expect(recordingState(app) == "idle")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).isEmpty)
    }

    @Test func withoutACameraPictureRecordRefusesAndSaysWhy() throws {
        let (app, _) = try makeApp(countdown: 0)
        defer { app.shutdown() }
        let reply = app.stage.handle(.record(start: true))
        #expect(reply.body["ok"] == false)
        #expect(reply.body["error"]?.stringValue?.hasPrefix("no camera picture to record") == true)
    }
}
