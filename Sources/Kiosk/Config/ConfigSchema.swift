import Foundation
import Prompter
import Stage

/// Every key rig.toml knows: where it goes in `RigConfig` and what it accepts.
/// The loader and `--set` both go through these, so a value is validated the same
/// way wherever it comes from.
struct ConfigKey {
    let path: String
    /// Stores the value, or returns the message saying why it can't.
    let apply: (inout RigConfig, ConfigValue) -> String?
}

/// A value as written: a scalar, or an array of scalars.
enum ConfigValue: Equatable {
    case scalar(TOMLDocument.Value)
    case array([TOMLDocument.Value])

    var kindName: String {
        switch self {
        case .array: "an array"
        case let .scalar(value):
            switch value {
            case .string: "a string"
            case .integer: "an integer"
            case .float: "a number with a fraction"
            case .boolean: "a boolean"
            case .dateTime: "a date"
            case .table: "a table"
            case .array: "an array"
            }
        }
    }
}

enum ConfigSchema {
    static let sections = ["displays", "displays.inner", "displays.outer", "camera", "audio", "touch",
                           "prompter", "keys", "keyboard", "control", "state", "recording", "remote", "remote.api_keys",
                           "follow", "follow_rig"] + ControllerConfigKeys.sections

    static let rotations = [0, 90, 180, 270]
    static let fontFamilies = FontFamily.allCases.map(\.rawValue)
    static let colorPresets = PresetColor.allCases.map(\.rawValue)
    static let lineBreaks = LineBreaks.allCases.map(\.rawValue)

    static var keys: [ConfigKey] {
        display("inner", \.displays.inner) + display("outer", \.displays.outer) + [
            bool("displays.legacy", \.displays.legacy),
            int("displays.headless_width", 320...7680, \.displays.headlessWidth),
            int("displays.headless_height", 200...4320, \.displays.headlessHeight),

            bool("camera.enabled", \.camera.enabled),
            string("camera.device", \.camera.device),
            int("camera.width", 160...3840, \.camera.width),
            int("camera.height", 120...2160, \.camera.height),
            int("camera.fps", 1...120, \.camera.fps),
            bool("camera.mirror", \.camera.mirror),

            alsaName("audio.output", \.audio.output),
            alsaName("audio.input", \.audio.input),
            int("audio.volume", 0...100, \.audio.volume),
            AudioConfigKeys.voice("audio.voice", \.audio.voice),
            int("audio.rate", 80...450, \.audio.rate),

            string("touch.device", \.touch.device),
            numbers("touch.calibration", count: 6, \.touch.calibration),

            oneOf("prompter.font_family", fontFamilies, \.prompter.fontFamily),
            int("prompter.font_size", 20...120, \.prompter.fontSize),
            double("prompter.line_spacing", 1.0...2.0, \.prompter.lineSpacing),
            int("prompter.margin", 0...25, \.prompter.margin),
            oneOf("prompter.text_color", colorPresets, \.prompter.textColor),
            oneOf("prompter.background_color", colorPresets, \.prompter.backgroundColor),
            bool("prompter.mirror", \.prompter.mirror),
            bool("prompter.flip", \.prompter.flip),
            rotation("prompter.rotation", \.prompter.rotation),
            int("prompter.speed", 10...300, \.prompter.speed),
            int("prompter.countdown", 0...10, \.prompter.countdown),
            oneOf("prompter.end_of_script", EndBehavior.allCases.map(\.rawValue), \.prompter.endOfScript),
            bool("prompter.outer_timer", \.prompter.outerTimer),
            oneOf("prompter.reading_line", ReadingLine.allCases.map(\.rawValue), \.prompter.readingLine),
            oneOf("prompter.pointer", PointerStyle.allCases.map(\.rawValue), \.prompter.pointer),
            oneOf("prompter.align", ReadingAlignment.allCases.map(\.rawValue), \.prompter.align),
            oneOf("prompter.weight", ReadingWeight.allCases.map(\.rawValue), \.prompter.weight),
            oneOf("prompter.direction_color", colorPresets, \.prompter.directionColor),
            oneOf("prompter.highlight_color", colorPresets, \.prompter.highlightColor),
            oneOf("prompter.directions", DirectionMarks.allCases.map(\.rawValue), \.prompter.directions),
            string("prompter.scripts_dir", \.prompter.scriptsDir),
            int("prompter.words_per_minute", 60...400, \.prompter.wordsPerMinute),
            oneOf("prompter.line_breaks", lineBreaks, \.prompter.lineBreaks),
            double("prompter.marker_position", 0.1...0.9, \.prompter.markerPosition),
            int("prompter.max_script_mb", 1...512, \.prompter.maxScriptMB),
            int("prompter.cache_mb", 0...1024, \.prompter.cacheMB, except: 1...15,
                because: "0 (as the display asks) or between 16 and 1024"),

            xkbName("keyboard.layout", allowsEmpty: false, \.keyboard.layout),
            xkbName("keyboard.variant", allowsEmpty: true, \.keyboard.variant),

            string("control.socket", \.control.socket),
            string("state.dir", \.state.dir),
        ] + RecordingConfigKeys.keys + RemoteConfigKeys.keys + FollowConfigKeys.keys + FollowRigConfig.keys
            + ControllerConfigKeys.keys
    }

    static func key(_ path: String) -> ConfigKey? {
        if path.hasPrefix("keys."), path.split(separator: ".").count == 2 {
            return binding(String(path.dropFirst("keys.".count)))
        }
        if path == RemoteConfigKeys.retiredToken.path { return RemoteConfigKeys.retiredToken }
        if path.hasPrefix("remote.api_keys."), path.split(separator: ".").count == 3 {
            return RemoteConfigKeys.apiKey(String(path.dropFirst("remote.api_keys.".count)))
        }
        return keys.first { $0.path == path }
    }

    private static func display(_ role: String, _ at: WritableKeyPath<RigConfig, RigConfig.Display>) -> [ConfigKey] {
        let section = "displays.\(role)"
        var keys = [
            string("\(section).connector", at.appending(path: \.connector)),
            ConfigKey(path: "\(section).mode") { config, value in
                guard case let .scalar(.string(text)) = value else {
                    return "\(section).mode must be a string such as \"1920x1080@60\" or \"preferred\", found \(value.kindName)"
                }
                guard let mode = DisplayMode(parsing: text) else {
                    return "\(section).mode must be \"preferred\" or WIDTHxHEIGHT[@HZ] such as \"1920x1080@60\", found \"\(text)\""
                }
                config[keyPath: at.appending(path: \.mode)] = mode
                return nil
            },
            rotation("\(section).rotation", at.appending(path: \.rotation)),
        ]
        if role == "outer" { keys.append(bool("\(section).enabled", at.appending(path: \.enabled))) }
        return keys
    }

    private static func binding(_ action: String) -> ConfigKey {
        ConfigKey(path: "keys.\(action)") { config, value in
            guard KeyAction(rawValue: action) != nil else {
                let hint = Suggestion.closest(to: action, in: KeyAction.allCases.map(\.rawValue)).map { " (did you mean \"\($0)\"?)" } ?? ""
                return "unknown action \"\(action)\" in [keys]\(hint)"
            }
            var names: [String] = []
            switch value {
            case let .scalar(.string(name)): names = [name]
            case let .array(items):
                for item in items {
                    guard case let .string(name) = item else {
                        return "keys.\(action) must be a list of key names such as [\"Space\"]"
                    }
                    names.append(name)
                }
            default: return "keys.\(action) must be a list of key names such as [\"Space\"], found \(value.kindName)"
            }
            config.keys[action] = names
            return nil
        }
    }

    // MARK: typed keys

    /// `except` a part of `range` that is refused (and `because`: what is allowed).
    static func int(_ path: String, _ range: ClosedRange<Int>, _ at: WritableKeyPath<RigConfig, Int>,
                    except: ClosedRange<Int>? = nil, because allowed: String? = nil) -> ConfigKey {
        ConfigKey(path: path) { config, value in
            guard case let .scalar(.integer(number)) = value else {
                return "\(path) must be an integer, found \(value.kindName)"
            }
            guard let fitted = Int(exactly: number), range.contains(fitted), except?.contains(fitted) != true else {
                let allowed = allowed ?? "between \(range.lowerBound) and \(range.upperBound)"
                return "\(path) must be \(allowed), found \(number)"
            }
            config[keyPath: at] = fitted
            return nil
        }
    }

    static func double(_ path: String, _ range: ClosedRange<Double>, _ at: WritableKeyPath<RigConfig, Double>) -> ConfigKey {
        ConfigKey(path: path) { config, value in
            let number: Double
            switch value {
            case let .scalar(.float(x)): number = x
            case let .scalar(.integer(x)): number = Double(x)
            default: return "\(path) must be a number, found \(value.kindName)"
            }
            guard range.contains(number) else {
                return "\(path) must be between \(format(range.lowerBound)) and \(format(range.upperBound)), found \(format(number))"
            }
            config[keyPath: at] = number
            return nil
        }
    }

    static func bool(_ path: String, _ at: WritableKeyPath<RigConfig, Bool>) -> ConfigKey {
        ConfigKey(path: path) { config, value in
            guard case let .scalar(.boolean(flag)) = value else {
                return "\(path) must be true or false, found \(value.kindName)"
            }
            config[keyPath: at] = flag
            return nil
        }
    }

    static func string(_ path: String, _ at: WritableKeyPath<RigConfig, String>) -> ConfigKey {
        ConfigKey(path: path) { config, value in
            guard case let .scalar(.string(text)) = value else {
                return "\(path) must be a string, found \(value.kindName)"
            }
            config[keyPath: at] = text
            return nil
        }
    }

    /// An ALSA PCM name: "default", "hw:CARD=Loopback,DEV=0", "plughw:1,0"; empty
    /// turns the device off. Whether it opens is only known at run time.
    static func alsaName(_ path: String, _ at: WritableKeyPath<RigConfig, String>) -> ConfigKey {
        ConfigKey(path: path) { config, value in
            guard case let .scalar(.string(text)) = value else {
                return "\(path) must be an ALSA device name such as \"default\" or \"hw:CARD=Device,DEV=0\" (\"\" for none), found \(value.kindName)"
            }
            guard text.count <= 200, !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\u{7f}" }) else {
                return "\(path) must be an ALSA device name such as \"default\" or \"hw:CARD=Device,DEV=0\", found \"\(text.prefix(40))\""
            }
            config[keyPath: at] = text.trimmingCharacters(in: .whitespaces)
            return nil
        }
    }

    /// An XKB layout or variant name. Whether XKB has it is checked once the whole
    /// `[keyboard]` table is known (`ConfigLoader.checkKeyboardLayout`).
    static func xkbName(_ path: String, allowsEmpty: Bool, _ at: WritableKeyPath<RigConfig, String>) -> ConfigKey {
        ConfigKey(path: path) { config, value in
            guard case let .scalar(.string(text)) = value else {
                return "\(path) must be a string such as \"us\", found \(value.kindName)"
            }
            if text.isEmpty && !allowsEmpty { return "\(path) must name an XKB layout such as \"us\", \"de\" or \"fr\"" }
            // XKB's names are short ASCII words; anything else cannot be one and would
            // only reach XKB's include machinery as a path.
            let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-,()")
            guard text.allSatisfy(allowed.contains) else {
                return "\(path) must be an XKB name such as \"us\" or \"nodeadkeys\" (letters, digits, _ - , ( )), found \"\(text)\""
            }
            config[keyPath: at] = text
            return nil
        }
    }

    static func oneOf(_ path: String, _ choices: [String], _ at: WritableKeyPath<RigConfig, String>) -> ConfigKey {
        ConfigKey(path: path) { config, value in
            guard case let .scalar(.string(text)) = value else {
                return "\(path) must be a string, found \(value.kindName)"
            }
            guard let match = choices.first(where: { $0.caseInsensitiveCompare(text) == .orderedSame }) else {
                let hint = Suggestion.closest(to: text, in: choices).map { " (did you mean \"\($0)\"?)" } ?? ""
                let list = choices.map { "\"\($0)\"" }.joined(separator: ", ")
                return "\(path) must be one of \(list), found \"\(text)\"\(hint)"
            }
            config[keyPath: at] = match
            return nil
        }
    }

    static func rotation(_ path: String, _ at: WritableKeyPath<RigConfig, Int>) -> ConfigKey {
        ConfigKey(path: path) { config, value in
            guard case let .scalar(.integer(degrees)) = value else {
                return "\(path) must be 0, 90, 180 or 270, found \(value.kindName)"
            }
            guard let fitted = Int(exactly: degrees), rotations.contains(fitted) else {
                return "\(path) must be 0, 90, 180 or 270, found \(degrees)"
            }
            config[keyPath: at] = fitted
            return nil
        }
    }

    static func numbers(_ path: String, count: Int, _ at: WritableKeyPath<RigConfig, [Double]>) -> ConfigKey {
        ConfigKey(path: path) { config, value in
            guard case let .array(items) = value, items.count == count else {
                return "\(path) must be an array of \(count) numbers"
            }
            var numbers: [Double] = []
            for item in items {
                switch item {
                case let .float(x): numbers.append(x)
                case let .integer(x): numbers.append(Double(x))
                default: return "\(path) must be an array of \(count) numbers"
                }
            }
            config[keyPath: at] = numbers
            return nil
        }
    }

    /// A whole number without ".0"; one too big for an Int (1e308, inf: TOML allows
    /// both) as Swift spells it, where `Int(x)` would stop the kiosk at its config.
    private static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }
}
