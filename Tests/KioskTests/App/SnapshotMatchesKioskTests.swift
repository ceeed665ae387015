import Foundation
import Prompter
import Render
import Testing
@testable import Kiosk
@testable import Stage

/// `rig snapshot --at T` and the headless kiosk are one stage: for the example script,
/// after the same events (the script opened at 0, play pressed at 0) the frames the
/// snapshot writes for T are byte for byte the frames the kiosk shows at T.
@Suite(.serialized) struct SnapshotMatchesKioskTests {
    static let welcome = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../examples/scripts/Welcome.md").standardizedFileURL

    @Test(arguments: [("plain", [String]()), ("mirrored", ["prompter.mirror=true"]),
                      ("rotated 90", ["prompter.rotation=90"])])
    func snapshotFramesAreTheHeadlessKiosksFrames(name: String, settings: [String]) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rig-same-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let scripts = root.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.welcome, to: scripts.appendingPathComponent("Welcome.md"))
        let shared = ["displays.headless_width=480", "displays.headless_height=270", "camera.enabled=false"] + settings
        let loaded = ConfigLoader.load(text: "", name: "test", overrides: [
            "state.dir=\"\(root.path)\"", "control.socket=\"\(root.path)/control.sock\"",
        ] + shared)
        #expect(loaded.errors.isEmpty, "\(loaded.errors)")

        // The kiosk: opens the script at 0 (the only one), play at 0, two seconds of frames.
        let clock = ManualClock(0)
        let app = try KioskApp(config: loaded.config, configProblems: [], backend: .headless, devices: [],
                               clock: clock.now)
        app.start()
        defer { app.shutdown() }
        #expect(app.stage.controller.script?.id == "Welcome.md")
        _ = app.stage.handle(.play)
        let loop = ManualLoop(clock: clock, loop: app.loop)
        loop.advance(to: 2)
        let backend = app.displaysBackend
        loop.run { DisplayRole.allCases.allSatisfy { (backend.status(of: $0).lastFlip?.time ?? 0) > 2 } }

        let rigToml = root.appendingPathComponent("rig.toml").path
        try Data().write(to: URL(fileURLWithPath: rigToml))
        for role in DisplayRole.allCases {
            let shownAt = try #require(backend.status(of: role).lastFlip?.time)
            let shown = try #require(backend.shownImagePPM(role))
            let out = root.appendingPathComponent("snapshot-\(role)").path
            let status = CLI.appliance.main(["rig", "snapshot", "--config", rigToml, "--script", Self.welcome.path,
                                   "--at", "\(shownAt)", "--out", out] + shared.flatMap { ["--set", $0] })
            #expect(status == 0)
            let written = try Canvas.readPNG(path: out + "/\(role).png")
            let same = Self.ppm(written) == shown
            #expect(same, "\(name): \(role) at \(shownAt) differs from the kiosk's")
            if !same {
                try Data(shown).write(to: URL(fileURLWithPath: "/tmp/rig-kiosk-\(role)-\(name).ppm"))
                try written.writePNG(path: "/tmp/rig-snapshot-\(role)-\(name).png")
            }
        }
    }

    /// A canvas as the headless backend's PPM: the same header, RGB bytes.
    static func ppm(_ canvas: Canvas) -> [UInt8] {
        var out = Array("P6\n\(canvas.width) \(canvas.height)\n255\n".utf8)
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                let p = canvas.pixels[y * canvas.width + x]
                out += [UInt8((p >> 16) & 0xFF), UInt8((p >> 8) & 0xFF), UInt8(p & 0xFF)]
            }
        }
        return out
    }
}
