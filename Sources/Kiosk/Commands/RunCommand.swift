import Foundation
import Stage

/// `rig run`: the kiosk. A broken rig.toml does not stop it: it comes up with the
/// defaults for whatever is wrong and shows the errors on the inner display.
enum RunCommand: Command {
    static let name = "run"
    static let watchesSignals = true
    static let summary = "Run the kiosk on the displays named in rig.toml"
    static let help = """
        Usage: rig run [--backend drm|headless|window] [--config PATH] [--set KEY=VALUE ...]

          Runs until SIGTERM or SIGINT, then leaves both screens clean.

        Options:
          --backend KIND       drm (default): the connectors in rig.toml; headless: memory;
                               window: two windows on the desktop ($DISPLAY or $WAYLAND_DISPLAY),
                               "inner (operator)" and "outer (talent)"; closing the outer one
                               unplugs it, closing the inner one quits
          --window-scale S     window: draw the windows at S times the displays' size
                               (default: as large as fits the screen, at most 1)
          --status-file PATH   keep the displays' status there as JSON (atomic rewrites)
          --seat               open displays and input through libseat even as root
                               (always when not root); follows VT switches
          --snapshot-dir DIR   headless: write inner.ppm and outer.ppm once both displays
                               have shown a frame, then exit
          --test-pattern       the displays alone: colour bars and a moving bar per head
                               (--paused holds it still; SIGUSR1 toggles the outer)
          --inner-size WxH     headless or window size of the inner display (default: rig.toml)
          --outer-size WxH     headless or window size of the outer display (default: rig.toml)
          --unplugged ROLE     headless snapshot: inner or outer unplugged after start-up
        \(ConfigOptions.help)
        """

    static func run(_ arguments: inout Arguments) throws(CLIError) -> Int32 {
        let kindName = try arguments.option("--backend") ?? "drm"
        guard let kind = DisplayService.Kind(rawValue: kindName) else {
            throw .usage("--backend must be drm, headless or window, not '\(kindName)'")
        }
        let windowScale = try arguments.option("--window-scale").map { text throws(CLIError) -> Double in
            guard let scale = Double(text), scale >= 0.05, scale <= 4 else {
                throw .usage("--window-scale must be a number from 0.05 to 4, not '\(text)'")
            }
            return scale
        }
        let statusPath = try arguments.option("--status-file")
        let snapshotDir = try arguments.option("--snapshot-dir")
        let seat = (arguments.flag("--seat") || geteuid() != 0) && kind == .drm
        let innerSize = try arguments.option("--inner-size").map(parseSize)
        let outerSize = try arguments.option("--outer-size").map(parseSize)
        let unpluggedName = try arguments.option("--unplugged")
        let unplugged = try unpluggedName.map { name throws(CLIError) -> DisplayRole in
            guard let role = DisplayRole(rawValue: name) else { throw .usage("--unplugged must be inner or outer, not '\(name)'") }
            return role
        }
        // The prompter opens stopped anyway; with --test-pattern it holds the bar still.
        let paused = arguments.flag("--paused")
        let testPattern = arguments.flag("--test-pattern")
        let options = try ConfigOptions(&arguments)
        try arguments.finish()
        if snapshotDir != nil && kind != .headless { throw .usage("--snapshot-dir needs --backend headless") }
        if unplugged != nil && snapshotDir == nil { throw .usage("--unplugged needs --snapshot-dir") }
        if windowScale != nil && kind != .window { throw .usage("--window-scale needs --backend window") }

        let loaded = options.load()
        for problem in loaded.problems { KioskLog.write(problem.severity == .error ? .error : .warning, problem.description) }
        var config = loaded.config
        if !loaded.errors.isEmpty {
            // The kiosk must come up: a file with errors counts for nothing, and the
            // errors go to the inner display. Overrides that were valid still apply.
            config = ConfigLoader.load(text: "", name: options.path, overrides: options.overrides).config
            KioskLog.error("\(options.path): \(loaded.errors.count) error(s); running with the defaults")
        }
        if testPattern {
            let fallback = (width: config.displays.headlessWidth, height: config.displays.headlessHeight)
            let sizes: [DisplayRole: (width: Int, height: Int)] = [
                .inner: innerSize.map { ($0.width, $0.height) } ?? fallback,
                .outer: outerSize.map { ($0.width, $0.height) } ?? fallback,
            ]
            do {
                return try TestPatternKiosk(kind: kind, configuration: DisplayConfiguration(config.displays), sizes: sizes,
                                            paused: paused, seat: seat, statusPath: statusPath,
                                            snapshotDir: snapshotDir, outerEnabled: config.displays.outer.enabled).run()
            } catch {
                throw .failed("\(error)")
            }
        }
        let sizes = HeadlessSizes(inner: innerSize, outer: outerSize, unplugged: unplugged, windowScale: windowScale)
        do {
            let app = try KioskApp(config: config, configProblems: loaded.problems, backend: kind,
                                   headlessSizes: sizes, statusPath: statusPath, useSeat: seat,
                                   // Headless kiosks (tests, machines with no displays) play no sound;
                                   // a window kiosk's input is the desktop's, through its windows.
                                   devices: kind == .headless ? [.input, .camera] : kind == .window ? [.camera, .audio] : .all)
            if let snapshotDir { return try app.snapshot(to: snapshotDir, unplugging: sizes.unplugged) }
            let welcome = FirstRunWelcome.start(stage: app.stage, config: config, configPath: options.path, loop: app.loop)
            let updater = RigUpdater.start(stage: app.stage, stateDirectory: config.state.dir, loop: app.loop)
            return withExtendedLifetime((welcome, updater)) { app.run() }
        } catch {
            throw .failed("\(error)")
        }
    }

    static func parseSize(_ text: String) throws(CLIError) -> PixelSizeArgument {
        let parts = text.split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...16384).contains(w), (1...16384).contains(h) else {
            throw .usage("size '\(text)' must be WIDTHxHEIGHT")
        }
        return PixelSizeArgument(width: w, height: h)
    }
}

struct PixelSizeArgument: Equatable {
    var width: Int
    var height: Int
}

/// Headless display sizes given on the command line, over rig.toml's.
struct HeadlessSizes {
    var inner: PixelSizeArgument?
    var outer: PixelSizeArgument?
    /// A snapshot's display unplugged after start-up, as the rig's hotplug tests do.
    var unplugged: DisplayRole?
    /// `--window-scale`: the window backend's scale instead of "fit the screen".
    var windowScale: Double?
}
