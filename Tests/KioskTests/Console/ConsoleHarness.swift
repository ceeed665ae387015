import Foundation
import Prompter
import Render
import Testing
@testable import Kiosk
@testable import Stage

/// A headless kiosk with a known library, driven like an operator would: keys as
/// the input side delivers them, clicks at the centre of what the last inner frame
/// showed. Dates and sizes are fixed so the console's pixels can be compared.
final class ConsoleHarness {
    let app: KioskApp
    let root: URL
    var scripts: URL { root.appendingPathComponent("scripts") }

    /// Three scripts, newest first: Intro (Talks), Keynote, Notes.
    init(overrides: [String] = [], inner: PixelSizeArgument = PixelSizeArgument(width: 960, height: 540)) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("rig-console-\(UUID().uuidString.prefix(8))")
        let scripts = root.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts.appendingPathComponent("Talks"), withIntermediateDirectories: true)
        let files: [(String, String, TimeInterval)] = [
            ("Notes.txt", "Remember to thank the crew. Lights, camera, sound.", 1_790_000_000),
            ("Keynote.md", "# Keynote\n\n" + String(repeating: "Good evening and welcome to the keynote. ", count: 60),
             1_790_500_000),
            ("Talks/Intro.txt", "Welcome to the show.\n\nTonight we talk about light.", 1_791_000_000),
        ]
        for (path, text, time) in files {
            let url = scripts.appendingPathComponent(path)
            try Data(text.utf8).write(to: url)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: time)],
                                                  ofItemAtPath: url.path)
        }
        let loaded = ConfigLoader.load(text: "", name: "test", overrides: [
            "state.dir=\"\(root.path)\"", "control.socket=\"\(root.path)/control.sock\"",
            "camera.enabled=false", "prompter.font_size=48",
        ] + overrides)
        #expect(loaded.errors.isEmpty, "\(loaded.errors)")
        app = try KioskApp(config: loaded.config, configProblems: [], backend: .headless,
                           headlessSizes: HeadlessSizes(inner: inner,
                                                        outer: PixelSizeArgument(width: 640, height: 360)),
                           devices: [])
        // A fixed wall clock: the console's clock and end time are part of its pixels.
        app.stage.wallClock = { Date(timeIntervalSince1970: 1_790_000_000) }
        app.start()
        settle()
    }

    deinit {
        app.shutdown()
        try? FileManager.default.removeItem(at: root)
    }

    var console: ConsoleController { app.stage.console }
    var state: ConsoleState { app.stage.console.state }

    func flips(_ role: DisplayRole) -> UInt64 { app.displaysBackend.status(of: role).flips }

    /// Runs the loop until `condition` holds, failing after a deadline.
    @discardableResult
    func run(seconds: Double = 10, sourceLocation: SourceLocation = #_sourceLocation, until condition: () -> Bool) -> Bool {
        let deadline = app.loop.clock() + seconds
        while !condition() && app.loop.clock() < deadline { app.loop.runOnce(timeout: 0.02) }
        let met = condition()
        #expect(met, "condition not reached in \(seconds) s", sourceLocation: sourceLocation)
        return met
    }

    /// Until the inner display shows the console as it is now (its targets with it).
    func settle(sourceLocation: SourceLocation = #_sourceLocation) {
        let headless = app.displaysBackend as? HeadlessBackend
        if app.stage.isAnimating(.inner, at: app.loop.clock()) {
            // Scrolling text never settles: two more frames show the newest state.
            let start = flips(.inner)
            run(sourceLocation: sourceLocation) { flips(.inner) >= start + 2 }
            return
        }
        run(sourceLocation: sourceLocation) {
            flips(.inner) > 0 && flips(.outer) > 0 && headless?.isSettled(.inner) != false
        }
    }

    // MARK: keys

    /// A key as InputDevices delivers it: its code, bound action, editing meaning and text.
    func key(_ name: String, text: String? = nil, shift: Bool = false) {
        let code = KeyNames.code(for: name) ?? 0
        var press = KeyPress(code: code, action: KeyBindings.defaults.action(forKey: code),
                             symbol: KeyNames.symbol(for: code), text: text, time: app.loop.clock())
        if shift { press.modifiers.insert(.shift) }
        app.handle(.key(press))
        settle()
    }

    /// Types text one key at a time.
    func type(_ text: String) {
        for character in text {
            let name = character == " " ? "Space" : String(character).uppercased()
            key(name, text: String(character))
        }
    }

    // MARK: pointer

    func target(_ id: WidgetID, sourceLocation: SourceLocation = #_sourceLocation) -> WidgetTarget? {
        let found = console.targets[id]
        #expect(found != nil, "no control \(id) on the console; it has \(console.targets.all.map(\.id))",
                sourceLocation: sourceLocation)
        return found
    }

    /// A left click at the control's centre, or at `fraction` along it.
    func click(_ id: WidgetID, fraction: Double = 0.5, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let target = target(id, sourceLocation: sourceLocation) else { return }
        let x = Double(target.rect.x) + Double(target.rect.width) * fraction
        let y = Double(target.rect.y) + Double(target.rect.height) / 2
        let now = app.loop.clock()
        app.handle(.innerPointer(x: x, y: y, button: nil, time: now))
        app.handle(.innerPointer(x: x, y: y, button: PointerButton(code: 0x110, isPressed: true), time: now))
        app.handle(.innerPointer(x: x, y: y, button: PointerButton(code: 0x110, isPressed: false), time: now))
        settle()
    }

    /// A finger tap on the inner touchscreen at the control's centre.
    func tap(_ id: WidgetID) {
        guard let target = target(id) else { return }
        let x = Double(target.rect.x + target.rect.width / 2), y = Double(target.rect.y + target.rect.height / 2)
        app.handle(.innerTouch(phase: .down, slot: 0, x: x, y: y, time: app.loop.clock()))
        app.handle(.innerTouch(phase: .up, slot: 0, x: x, y: y, time: app.loop.clock()))
        settle()
    }

    var scriptRows: [String] {
        console.targets.all.filter { $0.group == "scripts" }.map { String($0.id.dropFirst("script:".count)) }
    }

    // MARK: pixels

    func innerCanvas() throws -> Canvas {
        let headless = try #require(app.displaysBackend as? HeadlessBackend)
        let screen = try #require(headless.screen(.inner))
        let canvas = try Canvas(size: PixelSize(width: screen.width, height: screen.height))
        for y in 0..<screen.height {
            for x in 0..<screen.width { canvas.pixels[y * screen.width + x] = 0xff00_0000 | screen.pixel(x: x, y: y) }
        }
        return canvas
    }

    func fileText(_ path: String) -> String? {
        try? String(contentsOf: scripts.appendingPathComponent(path), encoding: .utf8)
    }
}
