import Foundation
import Stage

/// `rig input-probe`: a hidden subcommand that runs the real input path (libinput on
/// udev, the tap recogniser, key bindings) without displays and prints what it makes of
/// each event, with the events' own CLOCK_MONOTONIC times. The virtual-rig tests read
/// it; an installer uses it to check a rig's touchscreen and clicker on site.
enum InputProbeCommand: Command {
    static let name = "input-probe"
    static let watchesSignals = true
    static let summary = "Test aid: print input devices and the taps and key actions they produce"
    static let help = """
        Usage: rig input-probe [--touch DEVICE] [--outer-size WxH] [--rotation 0|90|180|270]
                               [--layout XKB_LAYOUT] [--variant XKB_VARIANT] [--seconds N]
               rig input-probe --list [--touch DEVICE]

          DEVICE is what rig.toml's [touch] device holds: a device name, a udev property
          match such as ID_PATH=..., or a /dev/input node. Prints "device-added ...",
          "event outer-tap <time>", "event key <action> <time>", and "trace ..." lines
          (touch down/up, why a touch was not a tap) until N seconds pass or SIGINT/SIGTERM.
          Key lines add what the key means on the layout ([keyboard] layout and variant,
          default "us"): its console symbol, the text it types and the modifiers held.
          --list prints the devices as `rig devices` will.
        """

    static func run(_ arguments: inout Arguments) throws(CLIError) -> Int32 {
        var configuration = InputConfiguration()
        configuration.outerTouch = try arguments.option("--touch").flatMap(OuterTouchSelector.init(configValue:))
        let list = arguments.flag("--list")
        var seconds: Double?
        if let text = try arguments.option("--seconds") {
            guard let value = Double(text), value > 0 else { throw .usage("--seconds \(text): not a positive number") }
            seconds = value
        }
        if let text = try arguments.option("--outer-size") {
            let parts = text.split(separator: "x").compactMap { Double($0) }
            guard parts.count == 2, parts.allSatisfy({ $0 > 0 }) else { throw .usage("--outer-size \(text): expected WxH, e.g. 1920x1080") }
            configuration.outerMapping.width = parts[0]
            configuration.outerMapping.height = parts[1]
        }
        if let text = try arguments.option("--rotation") {
            guard let rotation = Int(text).flatMap(TouchMapping.Rotation.init(rawValue:)) else {
                throw .usage("--rotation \(text): expected 0, 90, 180 or 270")
            }
            configuration.outerMapping.rotation = rotation
        }
        if let layout = try arguments.option("--layout") { configuration.keyboard.layout = layout }
        if let variant = try arguments.option("--variant") { configuration.keyboard.variant = variant }
        try arguments.finish()
        do {
            if list {
                for device in try InputDevices.list(outerTouch: configuration.outerTouch) { Log.stdout("\(device)") }
                return 0
            }
            try probe(configuration, seconds: seconds)
            return 0
        } catch {
            throw .failed("\(error)")
        }
    }

    private static func probe(_ configuration: InputConfiguration, seconds: Double?) throws {
        let loop = try EventLoop()
        let signals = try SignalWatcher()
        loop.addReader(fd: signals.fd, name: "signals") {
            if !signals.drain().isEmpty { loop.stop() }
        }
        let devices = try InputDevices(loop: loop, configuration: configuration,
                                       opener: DirectInputDeviceOpener()) { event in
            Log.stdout("event \(describe(event))")
        }
        devices.trace = { Log.stdout("trace \($0)") }
        if let seconds { loop.addTimer(at: loop.clock() + seconds) { loop.stop() } }
        Log.stdout("probe ready; outer touchscreen: \(configuration.outerTouch?.description ?? "none configured")"
            + "; keyboard layout: " + (devices.keymap.map { "\($0.names) (\($0.layoutName))" }
                ?? "none, \(devices.keymapProblem ?? "")"))
        loop.run()
        withExtendedLifetime(devices) {}
    }

    private static func describe(_ modifiers: KeyModifiers) -> String {
        let names: [(KeyModifiers, String)] = [(.shift, "shift"), (.control, "control"), (.alt, "alt")]
        return names.filter { modifiers.contains($0.0) }.map(\.1).joined(separator: "+")
    }

    /// One event per line, times in CLOCK_MONOTONIC seconds, for people and scripts.
    static func describe(_ event: InputEvent) -> String {
        switch event {
        case let .outerTap(time): String(format: "outer-tap %.6f", time)
        case let .key(press):
            String(format: "key %@ %.6f%@", press.action?.rawValue ?? "unbound", press.time, press.isRepeat ? " repeat" : "")
                + (press.symbol.map { " symbol \($0.rawValue)" } ?? "")
                + (press.text.map { " text \($0.debugDescription)" } ?? "")
                + (press.modifiers.isEmpty ? "" : " modifiers \(describe(press.modifiers))")
        case let .innerPointer(x, y, button, time):
            String(format: "inner-pointer %.1f %.1f %.6f", x, y, time)
                + (button.map { " button \($0.code) \($0.isPressed ? "pressed" : "released")" } ?? "")
        case let .innerTouch(phase, slot, x, y, time):
            String(format: "inner-touch %@ %d %.1f %.1f %.6f", "\(phase)", slot, x, y, time)
        case let .wheel(steps, time): String(format: "wheel %d %.6f", steps, time)
        case let .deviceAdded(info): "device-added \(info)"
        case let .deviceRemoved(info): "device-removed \(info)"
        }
    }
}
