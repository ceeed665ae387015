import Prompter

extension RigConfig {
    /// `[controllers.*]`: hand controllers that steer the speed (README, "Hand
    /// controllers"). Each kind has its own speed map; their buttons (and MIDI notes) are
    /// bound in `[keys]` like keys.
    struct Controllers: Equatable, Sendable {
        /// A Contour ShuttleXpress or ShuttlePRO: the ring's 7 positions each way.
        struct Shuttle: Equatable, Sendable {
            var enabled = true
            /// px/s for ring positions 1…7 (the same outward in reverse, capped there).
            var steps = [15, 30, 50, 75, 110, 160, 240]
            var reverseMax = 160
            /// Lines the text moves per jog-wheel detent while paused.
            var jogLines = 1
        }

        /// Any evdev joystick: one analogue axis is the speed.
        struct Gamepad: Equatable, Sendable {
            var enabled = true
            /// The evdev axis: ABS_Y (left stick), ABS_RY (right stick), ABS_Z/ABS_RZ (triggers)…
            var axis = "ABS_Y"
            /// True when pushing the axis towards its minimum is forward (a stick's "up").
            var invert = true
            var neutral = 0.15
            var curve = 2.0
            var forwardMax = 300
            var reverseMax = 150
        }

        /// The operator's mouse wheel or trackball ring.
        struct Wheel: Equatable, Sendable {
            /// "speed": a step changes the speed by the keys' step; "scroll": while paused a
            /// step moves the text by `lines`; "off".
            var action = "speed"
            var lines = 1
        }

        /// MIDI through the ALSA sequencer: a controller change (CC) is the speed.
        struct MIDI: Equatable, Sendable {
            var enabled = true
            /// Part of a sequencer port's client or port name, or "any".
            var port = "any"
            /// The controller number: 11 is an expression pedal, 7 a channel fader, 1 a mod wheel.
            var cc = 11
            /// Where the control rests: 0 for a pedal at the heel, 64 for a centred fader.
            var rest = 0
            var neutral = 0.05
            var curve = 1.0
            var forwardMax = 300
            var reverseMax = 150
            var steps: [Int] = []
        }

        var shuttle = Shuttle()
        var gamepad = Gamepad()
        var wheel = Wheel()
        var midi = MIDI()
    }
}

/// The rig.toml keys of `[controllers.*]`.
enum ControllerConfigKeys {
    static let sections = ["controllers", "controllers.shuttle", "controllers.gamepad", "controllers.wheel",
                           "controllers.midi"]
    static let wheelActions = ["speed", "scroll", "off"]
    static let speeds = 10...300

    static var keys: [ConfigKey] {
        typealias S = ConfigSchema
        return [
            S.bool("controllers.shuttle.enabled", \.controllers.shuttle.enabled),
            speedList("controllers.shuttle.steps", count: 7, \.controllers.shuttle.steps),
            S.int("controllers.shuttle.reverse_max", 0...300, \.controllers.shuttle.reverseMax),
            S.int("controllers.shuttle.jog_lines", 1...20, \.controllers.shuttle.jogLines),

            S.bool("controllers.gamepad.enabled", \.controllers.gamepad.enabled),
            S.oneOf("controllers.gamepad.axis", GamepadAxes.names, \.controllers.gamepad.axis),
            S.bool("controllers.gamepad.invert", \.controllers.gamepad.invert),
            S.double("controllers.gamepad.neutral", 0...0.9, \.controllers.gamepad.neutral),
            S.double("controllers.gamepad.curve", 0.25...4, \.controllers.gamepad.curve),
            S.int("controllers.gamepad.forward_max", speeds, \.controllers.gamepad.forwardMax),
            S.int("controllers.gamepad.reverse_max", 0...300, \.controllers.gamepad.reverseMax),

            S.oneOf("controllers.wheel.action", wheelActions, \.controllers.wheel.action),
            S.int("controllers.wheel.lines", 1...20, \.controllers.wheel.lines),

            S.bool("controllers.midi.enabled", \.controllers.midi.enabled),
            S.string("controllers.midi.port", \.controllers.midi.port),
            S.int("controllers.midi.cc", 0...119, \.controllers.midi.cc),
            S.int("controllers.midi.rest", 0...127, \.controllers.midi.rest),
            S.double("controllers.midi.neutral", 0...0.9, \.controllers.midi.neutral),
            S.double("controllers.midi.curve", 0.25...4, \.controllers.midi.curve),
            S.int("controllers.midi.forward_max", speeds, \.controllers.midi.forwardMax),
            S.int("controllers.midi.reverse_max", 0...300, \.controllers.midi.reverseMax),
            speedList("controllers.midi.steps", count: nil, \.controllers.midi.steps),
        ]
    }

    /// A list of speeds in px/s, each within the engine's range.
    static func speedList(_ path: String, count: Int?, _ at: WritableKeyPath<RigConfig, [Int]>) -> ConfigKey {
        ConfigKey(path: path) { config, value in
            let wanted = count.map { "an array of \($0) speeds" } ?? "an array of speeds"
            guard case let .array(items) = value, count.map({ items.count == $0 }) ?? (items.count <= 32) else {
                return "\(path) must be \(wanted) in px/s such as [15, 30, 50]"
            }
            var list: [Int] = []
            for item in items {
                guard case let .integer(number) = item, let fitted = Int(exactly: number), speeds.contains(fitted) else {
                    return "\(path) must be \(wanted), each between \(speeds.lowerBound) and \(speeds.upperBound) px/s"
                }
                list.append(fitted)
            }
            config[keyPath: at] = list
            return nil
        }
    }
}

/// The gamepad axes rig.toml may name, with their evdev codes (linux/input-event-codes.h).
enum GamepadAxes {
    static let codes: [(name: String, code: UInt16)] = [
        ("ABS_X", 0x00), ("ABS_Y", 0x01), ("ABS_Z", 0x02), ("ABS_RX", 0x03), ("ABS_RY", 0x04), ("ABS_RZ", 0x05),
        ("ABS_THROTTLE", 0x06), ("ABS_RUDDER", 0x07), ("ABS_WHEEL", 0x08), ("ABS_GAS", 0x09), ("ABS_BRAKE", 0x0a),
        ("ABS_HAT0Y", 0x11),
    ]
    static var names: [String] { codes.map(\.name) }
    static func code(_ name: String) -> UInt16? { codes.first { $0.name == name }?.code }
}
