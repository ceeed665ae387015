import Foundation
import Prompter
import Stage

/// A running kiosk's outer frames as they are shown, for `rig bench --case
/// kiosk-smoothness`: the headless kiosk (`rig run --backend headless`: its event loop,
/// frame pacing and flips on the vblank grid) opens a script and plays it, and each
/// completed outer flip hands its front buffer to `frame` on the loop. What the bench
/// measures from these pixels is what the app shows, not what a test harness composes.
package enum KioskScrollProbe {
    package struct Shown {
        package let pixels: UnsafeRawPointer
        package let width: Int
        package let height: Int
        package let stride: Int
        /// The vblank the frame was shown at, on the kiosk's clock.
        package let time: Double
    }

    package struct Outcome {
        /// Outer flips the kiosk missed a vblank for while playing (`missed_vblanks`).
        package var missedVblanks: Int
        package var flips: Int
    }

    /// Runs a headless kiosk with `text` as its only script at `speed` px/s and
    /// `fontSize` px on an outer display of `width`×`height`, until `frames` outer
    /// flips after the ramp (the first second) have been handed to `frame`.
    package static func run(text: String, width: Int, height: Int, fontSize: Int, speed: Int, frames: Int,
                            frame: (Shown) -> Void) throws -> Outcome {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rig-probe-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        let scripts = root.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: scripts.appendingPathComponent("Probe.txt"))
        let loaded = ConfigLoader.load(text: "", name: "probe", overrides: [
            "state.dir=\"\(root.path)\"", "control.socket=\"\(root.path)/control.sock\"",
            "camera.enabled=false", "prompter.font_size=\(fontSize)", "prompter.speed=\(speed)",
            // The reading band tints the text it crosses: the pixel meter wants only ink.
            "prompter.pointer=\"none\"",
        ])
        guard loaded.errors.isEmpty else { throw ProbeError.config(loaded.errors.map(\.description)) }
        let app = try KioskApp(config: loaded.config, configProblems: [], backend: .headless,
                               headlessSizes: HeadlessSizes(inner: PixelSizeArgument(width: 640, height: 360),
                                                            outer: PixelSizeArgument(width: width, height: height)),
                               devices: [])
        defer { app.shutdown() }
        guard let headless = app.displaysBackend as? HeadlessBackend else { throw ProbeError.notHeadless }
        app.start()
        // The display up and the script laid out to its end before play.
        let ready = app.loop.clock() + 30
        while app.loop.clock() < ready, app.stage.renderer.readingText?.layout?.isComplete != true
            || app.displaysBackend.status(of: .outer).flips == 0 {
            app.loop.runOnce(timeout: 0.02)
        }
        guard app.stage.controller.script != nil else { throw ProbeError.noScript }
        let start = app.loop.clock()
        app.stage.controller.play(at: start)
        app.stage.stateChanged()
        var handed = 0
        let missedBefore = app.displaysBackend.status(of: .outer).missedVblanks
        withoutActuallyEscaping(frame) { frame in
            // Only while this loop runs: the hook is cleared before `frame` goes.
            headless.onPresented = { role, stamp, buffer in
                guard role == .outer, stamp.time > start + 1, handed < frames else { return }
                handed += 1
                frame(Shown(pixels: UnsafeRawPointer(buffer.pixels), width: buffer.width, height: buffer.height,
                            stride: buffer.stride, time: stamp.time))
            }
            let deadline = app.loop.clock() + 1 + Double(frames) / 20 + 10
            while handed < frames && app.loop.clock() < deadline { app.loop.runOnce(timeout: 0.02) }
            headless.onPresented = nil
        }
        guard handed == frames else { throw ProbeError.tooFewFrames(handed) }
        return Outcome(missedVblanks: Int(app.displaysBackend.status(of: .outer).missedVblanks - missedBefore),
                       flips: handed)
    }

    package enum ProbeError: Error, CustomStringConvertible {
        case config([String])
        case notHeadless
        case noScript
        case tooFewFrames(Int)

        package var description: String {
            switch self {
            case let .config(errors): "the probe's settings were refused: \(errors.joined(separator: "; "))"
            case .notHeadless: "the kiosk did not start with the headless backend"
            case .noScript: "the kiosk opened no script"
            case let .tooFewFrames(count): "only \(count) outer frames were shown before the deadline"
            }
        }
    }
}
