import Foundation
import Media
import Prompter
import Render
import Testing
@testable import Kiosk
@testable import Stage

/// A headless kiosk on a manual clock with clips already recorded in its folder:
/// two prompter takes and one game attempt, with fixed dates. Each clip's pictures
/// say which frame they are: a flat grey whose level is the frame's index, with a
/// bright square in the top-left corner (a mirrored replay would have it top-right).
final class ClipsHarness {
    let clock = ManualClock(0)
    let app: KioskApp
    let root: URL
    var folder: String { root.path + "/recordings" }
    var exportFolder: String { root.path + "/export" }
    var loop: ManualLoop { ManualLoop(clock: clock, loop: app.loop) }
    static let frames = 45

    /// The grey of frame `index` (its luma), below the clipping of limited-range video.
    static func luma(_ index: Int) -> UInt8 { UInt8(24 + 4 * index) }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("rig-clips-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(atPath: root.path + "/scripts", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root.path + "/export", withIntermediateDirectories: true)
        try Data("Welcome to the show.".utf8).write(to: root.appendingPathComponent("scripts/Intro.txt"))
        try FileManager.default.createDirectory(atPath: root.path + "/recordings", withIntermediateDirectories: true)
        try Self.record(in: root.path + "/recordings", name: "prompter-20261201-081500-1", date: 1_796_112_900,
                        annotations: ["kind": "prompter", "script": "Intro.txt", "script_title": "Intro"])
        try Self.record(in: root.path + "/recordings", name: "prompter-20261201-091000-2", date: 1_796_116_200,
                        annotations: ["kind": "prompter", "script": "Intro.txt", "script_title": "Intro, second take"])
        try Self.record(in: root.path + "/recordings", name: "game-20261201-093000-3", date: 1_796_117_400,
                        annotations: ["kind": "game", "player": "Ana", "card": "Touch your nose", "rule": "simon",
                                      "verdict": "pass", "game": "game-1"])
        let loaded = ConfigLoader.load(text: "", name: "test", overrides: [
            "state.dir=\"\(root.path)\"", "control.socket=\"\(root.path)/control.sock\"", "camera.enabled=false",
            "prompter.font_size=48", "recording.export_folder=\"\(root.path)/export\"",
        ])
        #expect(loaded.errors.isEmpty, "\(loaded.errors)")
        app = try KioskApp(config: loaded.config, configProblems: [], backend: .headless,
                           headlessSizes: HeadlessSizes(inner: PixelSizeArgument(width: 960, height: 540),
                                                        outer: PixelSizeArgument(width: 640, height: 360)),
                           devices: [], clock: clock.now)
        app.start()
        settle()
    }

    deinit {
        app.shutdown()
        try? FileManager.default.removeItem(at: root)
    }

    /// A 320x240 clip of `frames` pictures at 30 fps and a quiet tone, its JSON dated `date`.
    static func record(in folder: String, name: String, date: TimeInterval, annotations: [String: String]) throws {
        var settings = RecorderSettings()
        settings.preset = "ultrafast"
        settings.queueLimit = 10_000
        let recorder = try Recorder(folder: folder, name: name, video: VideoTrackFormat(format: .yuyv, width: 320, height: 240),
                                    audio: AudioTrackFormat(sampleRate: 48_000, channels: 1), origin: 0, settings: settings)
        for k in 0..<(frames * 100 / 30 + 5) {
            let samples = (0..<480).map { Int16(3000 * sin(Double(k * 480 + $0) / 20)) }
            recorder.append(RecorderAudioChunk(samples: samples, timestamp: Double(k) * 0.01))
        }
        for index in 0..<frames {
            var bytes = [UInt8](repeating: 128, count: 320 * 240 * 2)
            for y in 0..<240 {
                for x in 0..<320 { bytes[(y * 320 + x) * 2] = x < 64 && y < 64 ? 235 : luma(index) }
            }
            recorder.append(RecorderVideoFrame(format: .yuyv, width: 320, height: 240, bytesPerLine: 640,
                                               timestamp: Double(index) / 30, bytes: RecordedBytes(bytes)))
        }
        _ = try recorder.finish(annotations: annotations)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: date)],
                                              ofItemAtPath: folder + "/" + name + ".json")
    }

    var stage: RigStage { app.stage }
    var headless: HeadlessBackend? { app.displaysBackend as? HeadlessBackend }

    /// Until the inner display shows the console as it is now (nothing is moving).
    func settle(sourceLocation: SourceLocation = #_sourceLocation) {
        loop.run(sourceLocation: sourceLocation) { headless?.isSettled(.inner) != false && headless?.isSettled(.outer) != false }
    }

    /// Runs the loop without moving its clock until `condition` holds: for work on
    /// other threads (the decoder, the export copy), with a deadline in real time.
    @discardableResult
    func waitForThreads(seconds: Double = 20, sourceLocation: SourceLocation = #_sourceLocation,
                        until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() && Date() < deadline { app.loop.runOnce(timeout: 0.01) }
        let met = condition()
        #expect(met, "condition not reached in \(seconds) s", sourceLocation: sourceLocation)
        return met
    }

    func key(_ name: String, text: String? = nil, settle wait: Bool = true) {
        let code = KeyNames.code(for: name) ?? 0
        let press = KeyPress(code: code, action: KeyBindings.defaults.action(forKey: code), symbol: KeyNames.symbol(for: code),
                             text: text, time: clock.now())
        app.handle(.key(press))
        if wait { settle() }
    }

    func target(_ id: WidgetID, sourceLocation: SourceLocation = #_sourceLocation) -> WidgetTarget? {
        let found = stage.console.targets[id]
        #expect(found != nil, "no control \(id); the console has \(stage.console.targets.all.map(\.id))",
                sourceLocation: sourceLocation)
        return found
    }

    func click(_ id: WidgetID, settle wait: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let target = target(id, sourceLocation: sourceLocation) else { return }
        let x = Double(target.rect.x + target.rect.width / 2), y = Double(target.rect.y + target.rect.height / 2)
        app.handle(.innerPointer(x: x, y: y, button: nil, time: clock.now()))
        app.handle(.innerPointer(x: x, y: y, button: PointerButton(code: 0x110, isPressed: true), time: clock.now()))
        app.handle(.innerPointer(x: x, y: y, button: PointerButton(code: 0x110, isPressed: false), time: clock.now()))
        if wait { settle() }
    }

    var clipRows: [String] {
        stage.console.targets.all.filter { $0.group == "clips" }.map { String($0.id.dropFirst("clip:".count)) }
    }

    func innerCanvas() throws -> Canvas {
        let screen = try #require(headless?.screen(.inner))
        let canvas = try Canvas(size: PixelSize(width: screen.width, height: screen.height))
        for y in 0..<screen.height {
            for x in 0..<screen.width { canvas.pixels[y * screen.width + x] = 0xff00_0000 | screen.pixel(x: x, y: y) }
        }
        return canvas
    }

    /// Which frame of a clip the inner display shows at (x, y): the index whose grey
    /// is nearest, nil when none is within 3 levels (black, or another picture).
    func frameShown(x: Int, y: Int) -> Int? {
        guard let pixel = headless?.screen(.inner)?.pixel(x: x, y: y) else { return nil }
        let channels = [(pixel >> 16) & 0xff, (pixel >> 8) & 0xff, pixel & 0xff].map { Double($0) }
        guard channels.max()! - channels.min()! <= 3 else { return nil }
        let grey = channels.reduce(0, +) / 3
        // BT.601 limited range, as libyuv converts: RGB = 1.164 (Y − 16).
        let nearest = (0..<Self.frames).min { abs(Self.rgb($0) - grey) < abs(Self.rgb($1) - grey) }
        return nearest.flatMap { abs(Self.rgb($0) - grey) <= 3 ? $0 : nil }
    }

    static func rgb(_ index: Int) -> Double { min(255, 1.164 * (Double(luma(index)) - 16)) }
}
