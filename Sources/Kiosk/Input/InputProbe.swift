import Foundation

/// `rig input-probe`: prints every device and what the input side makes of each event
/// (libinput's touch downs and ups with their own times, the tap verdicts, key actions),
/// so a rig's touchscreen and clicker can be checked on site without the kiosk.
///   rig input-probe [--touch "<[touch] device value>"] [--seconds N]
///                   [--outer-size WxH] [--rotation 0|90|180|270]
enum InputProbe {
    static func run(arguments: [String]) -> Int32 {
        var configuration = InputConfiguration()
        var seconds: Double?
        var index = 0
        func value() -> String? {
            index += 1
            return index < arguments.count ? arguments[index] : nil
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--touch": configuration.outerTouch = value().flatMap(OuterTouchSelector.init(configValue:))
            case "--seconds": seconds = value().flatMap(Double.init)
            case "--outer-size":
                let parts = (value() ?? "").split(separator: "x").compactMap { Double($0) }
                guard parts.count == 2 else { return usage("--outer-size needs WxH, e.g. 1920x1080") }
                configuration.outerMapping.width = parts[0]
                configuration.outerMapping.height = parts[1]
            case "--rotation":
                guard let rotation = value().flatMap(Int.init).flatMap(TouchMapping.Rotation.init(rawValue:)) else {
                    return usage("--rotation needs 0, 90, 180 or 270")
                }
                configuration.outerMapping.rotation = rotation
            default: return usage("unknown argument \(arguments[index])")
            }
            index += 1
        }
        do {
            let loop = try EventLoop()
            let signals = try SignalWatcher()
            loop.addReader(fd: signals.fd, name: "signals") {
                if !signals.drain().isEmpty { loop.stop() }
            }
            let devices = try InputDevices(loop: loop, configuration: configuration,
                                           opener: DirectInputDeviceOpener()) { event in
                emit("event \(describe(event))")
            }
            devices.trace = { line in
                emit("trace \(line)")
            }
            if let seconds { loop.addTimer(at: loop.clock() + seconds) { loop.stop() } }
            emit("probe ready; outer touchscreen: \(configuration.outerTouch?.description ?? "none configured")")
            loop.run()
            withExtendedLifetime(devices) {}
            return 0
        } catch {
            FileHandle.standardError.write(Data("rig input-probe: \(error)\n".utf8))
            return 1
        }
    }

    /// One event per line, times in CLOCK_MONOTONIC seconds, for people and scripts.
    static func describe(_ event: InputEvent) -> String {
        switch event {
        case let .outerTap(time): String(format: "outer-tap %.6f", time)
        case let .key(action, time, isRepeat):
            String(format: "key %@ %.6f%@", action.rawValue, time, isRepeat ? " repeat" : "")
        case let .innerPointer(x, y, button, time):
            String(format: "inner-pointer %.1f %.1f %.6f", x, y, time)
                + (button.map { " button \($0.code) \($0.isPressed ? "pressed" : "released")" } ?? "")
        case let .innerTouch(phase, slot, x, y, time):
            String(format: "inner-touch %@ %d %.1f %.1f %.6f", "\(phase)", slot, x, y, time)
        case let .deviceAdded(info): "device-added \(info)"
        case let .deviceRemoved(info): "device-removed \(info)"
        }
    }

    /// Unbuffered, so a script reading the probe's output sees each line at once.
    private static func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private static func usage(_ problem: String) -> Int32 {
        FileHandle.standardError.write(Data("rig input-probe: \(problem)\n".utf8))
        return 2
    }
}
