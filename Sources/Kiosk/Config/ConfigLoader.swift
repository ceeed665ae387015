import Foundation
import Stage

/// Turns rig.toml (and `--set` overrides) into one `RigConfig`, collecting every
/// problem with its place instead of stopping at the first.
package struct ConfigLoader {
    package struct Result {
        var config: RigConfig
        var problems: [ConfigProblem]
        /// Where each `[keys]` entry was written, to place key-name problems.
        var keyPlaces: [String: ConfigPlace] = [:]
        var errors: [ConfigProblem] { problems.filter { $0.severity == .error } }
        var warnings: [ConfigProblem] { problems.filter { $0.severity == .warning } }
    }

    /// Reads a file. Unreadable files are errors at the file itself (line 0).
    static func load(path: String, overrides: [String] = []) -> Result {
        switch readText(path: path) {
        case let .success(text):
            var result = load(text: text, name: path, overrides: overrides)
            if let problem = readableKeys(path: path, config: result.config) { result.problems.insert(problem, at: 0) }
            return result
        case let .failure(problem):
            var result = load(text: "", name: path, overrides: overrides)
            result.problems.insert(problem, at: 0)
            return result
        }
    }

    package static func load(text: String, name: String, overrides: [String] = []) -> Result {
        var result = Result(config: RigConfig(), problems: [])
        do {
            let document = try TOMLDocument(text: text, sourceName: name)
            apply(document, file: name, to: &result)
            // toml++ keeps tables sorted by key; report in reading order instead.
            result.problems.sort { ($0.line, $0.column) < ($1.line, $1.column) }
        } catch {
            result.problems.append(.error(ConfigPlace(file: name, line: error.line, column: error.column),
                                          "invalid TOML: \(error.message)"))
        }
        for (index, override) in overrides.enumerated() {
            applyOverride(override, index: index + 1, to: &result)
        }
        checkKeyNames(&result)
        checkKeyboardLayout(&result)
        // Empty means the default for how rig runs: the service's folders, or the user's.
        let paths = RigPaths.defaults()
        if result.config.state.dir.isEmpty { result.config.state.dir = paths.state }
        if result.config.control.socket.isEmpty { result.config.control.socket = paths.socket }
        return result
    }

    // MARK: reading the file

    static func readText(path: String) -> Swift.Result<String, ConfigProblem> {
        func fail(_ message: String) -> Swift.Result<String, ConfigProblem> {
            .failure(.error(ConfigPlace(file: path, line: 0, column: 0), message))
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return fail("no such file; rig check --config PATH takes a rig.toml")
        }
        if isDirectory.boolValue { return fail("is a directory, not a rig.toml file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            return fail("cannot be read (\(String(cString: strerror(errno))))")
        }
        if let offset = firstInvalidUTF8(in: data) {
            return fail("is not UTF-8: invalid byte 0x\(String(data[data.startIndex + offset], radix: 16)) at byte offset \(offset)")
        }
        return .success(String(decoding: data, as: UTF8.self))
    }

    /// A file holding remote API keys that every user of the machine can read: each of
    /// them could drive the rig from the network.
    static func readableKeys(path: String, config: RigConfig) -> ConfigProblem? {
        var info = stat()
        guard !config.remote.apiKeys.isEmpty, stat(path, &info) == 0, info.st_mode & S_IROTH != 0 else { return nil }
        return .warning(ConfigPlace(file: path, line: 0, column: 0),
                        "holds [remote.api_keys] and every user of this machine can read it: "
                            + "chmod 640 it (owner root, group rig), as the package installs it")
    }

    /// The byte offset of the first byte that breaks UTF-8, or nil when the data is valid.
    package static func firstInvalidUTF8(in data: Data) -> Int? {
        let bytes = [UInt8](data)
        var i = 0
        while i < bytes.count {
            let lead = bytes[i]
            let length: Int
            switch lead {
            case 0x00...0x7F: i += 1; continue
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return i
            }
            guard i + length <= bytes.count else { return i }
            for k in 1..<length where bytes[i + k] & 0xC0 != 0x80 { return i + k }
            let second = bytes[i + 1]
            if (lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F)
                || (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second > 0x8F) { return i + 1 }
            i += length
        }
        return nil
    }

    // MARK: applying values

    private static func apply(_ document: TOMLDocument, file: String, to result: inout Result) {
        let entries = document.entries
        for (index, entry) in entries.enumerated() {
            // Array elements are applied with their array.
            if let parent = entry.parent, entries[parent].value == .array { continue }
            let place = ConfigPlace(file: file, line: entry.line, column: entry.column)
            if entry.value == .table {
                checkSection(entry.path, place: place, to: &result)
                continue
            }
            let section = entry.parent.map { entries[$0].path } ?? ""
            // Keys of unknown sections were reported with their section.
            if !section.isEmpty && !ConfigSchema.sections.contains(section) { continue }
            let value: ConfigValue = entry.value == .array
                ? .array(entries[(index + 1)...].filter { $0.parent == index }.map(\.value))
                : .scalar(entry.value)
            store(path: entry.path, value: value, place: place, to: &result)
        }
    }

    private static func checkSection(_ path: String, place: ConfigPlace, to result: inout Result) {
        guard !ConfigSchema.sections.contains(path) else { return }
        // A table inside a known section is an unknown key of that section.
        let parent = path.split(separator: ".").dropLast().joined(separator: ".")
        if ConfigSchema.sections.contains(parent) {
            unknownKey(path, place: place, to: &result)
            return
        }
        if ConfigSchema.sections.contains(where: { $0.hasPrefix(path + ".") }) { return }
        // Only the outermost unknown table is reported; its children go with it.
        if !parent.isEmpty { return }
        let hint = Suggestion.closest(to: path, in: ConfigSchema.sections).map { " (did you mean [\($0)]?)" } ?? ""
        result.problems.append(.warning(place, "unknown section [\(path)], ignored\(hint)"))
    }

    private static func store(path: String, value: ConfigValue, place: ConfigPlace, to result: inout Result) {
        guard let key = ConfigSchema.key(path) else {
            unknownKey(path, place: place, to: &result)
            return
        }
        if let message = key.apply(&result.config, value) {
            result.problems.append(.error(place, message))
        } else if path.hasPrefix("keys.") {
            result.keyPlaces[String(path.dropFirst("keys.".count))] = place
        } else if path.hasPrefix("keyboard.") {
            result.config.keyboard.places[path] = place
        }
    }

    /// Key names in `[keys]` are checked once the whole table is known, since a key
    /// may only be bound to one action.
    private static func checkKeyNames(_ result: inout Result) {
        let entries = result.config.keys.map { action, keys in
            let place = result.keyPlaces[action] ?? ConfigPlace(file: "rig.toml", line: 0, column: 0)
            return (action: action, keys: keys, line: place.line, column: place.column)
        }.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
        for problem in KeyBindings.parse(bindings: entries).problems {
            let place = result.keyPlaces.values.first { $0.line == problem.line && $0.column == problem.column }
                ?? ConfigPlace(file: "rig.toml", line: problem.line, column: problem.column)
            result.problems.append(.error(place, problem.message))
        }
    }

    /// A `[keyboard]` layout is compiled here too, so `rig check` names a layout XKB
    /// does not know. A warning, not an error: the kiosk runs with the rest of the file
    /// and only typed text is lost; it shows the same message itself
    /// (`InputDevices.keymapProblem`), since warnings make no banner.
    private static func checkKeyboardLayout(_ result: inout Result) {
        let keyboard = result.config.keyboard
        guard !keyboard.places.isEmpty else { return }
        do {
            _ = try KeyboardKeymap(names: keyboard.names)
        } catch {
            let (place, message) = error.placed(in: keyboard.places)
            result.problems.append(.warning(place ?? ConfigPlace(file: "rig.toml", line: 0, column: 0), message))
        }
    }

    private static func unknownKey(_ path: String, place: ConfigPlace, to result: inout Result) {
        let section = path.split(separator: ".").dropLast().joined(separator: ".")
        let siblings = ConfigSchema.keys.map(\.path).filter {
            $0.split(separator: ".").dropLast().joined(separator: ".") == section
        }
        let hint = Suggestion.closest(to: path, in: siblings).map { " (did you mean \($0)?)" } ?? ""
        result.problems.append(.warning(place, "unknown key \(path), ignored\(hint)"))
    }

    /// A value as written after `=`, read as TOML (so `true`, `1.5`, `[..]` work), or
    /// as a bare string when it isn't TOML, so `prompter.text_color=yellow` works.
    static func parseValue(_ raw: String) -> ConfigValue {
        guard let document = try? TOMLDocument(text: "v = \(raw)", sourceName: "--set"),
              let first = document.entries.first else { return .scalar(.string(raw)) }
        return first.value == .array
            ? .array(document.entries.dropFirst().filter { $0.parent == 0 }.map(\.value))
            : .scalar(first.value)
    }

    /// `--set prompter.speed=90`: the value is read as TOML (so `true`, `1.5`, `[..]`
    /// work), falling back to a bare string so `--set prompter.text_color=yellow` works.
    private static func applyOverride(_ text: String, index: Int, to result: inout Result) {
        let file = "--set #\(index) \(text)"
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            result.problems.append(.error(ConfigPlace(file: file, line: 0, column: 0),
                                          "expected KEY=VALUE, such as prompter.speed=90"))
            return
        }
        let path = String(text[..<equals]).trimmingCharacters(in: .whitespaces)
        let raw = String(text[text.index(after: equals)...])
        let place = ConfigPlace(file: file, line: 0, column: 0)
        let value = parseValue(raw)
        guard ConfigSchema.key(path) != nil else {
            let hint = Suggestion.closest(to: path, in: ConfigSchema.keys.map(\.path)).map { " (did you mean \($0)?)" } ?? ""
            result.problems.append(.error(place, "unknown key \(path)\(hint)"))
            return
        }
        store(path: path, value: value, place: place, to: &result)
    }
}
