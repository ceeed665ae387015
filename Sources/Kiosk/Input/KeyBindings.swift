import Stage

/// Which operator key does what: the defaults, overridden by rig.toml's `[keys]` table,
/// where each entry is an action name with a list of key names
/// (`faster = ["Up", "PageDown"]`).
struct KeyBindings: Sendable, Equatable {
    /// Every bound key per action; an action may have no key at all.
    private(set) var keysByAction: [KeyAction: [UInt32]]
    private var actionByKey: [UInt32: KeyAction]

    init(keysByAction: [KeyAction: [UInt32]]) {
        self.keysByAction = keysByAction
        var byKey: [UInt32: KeyAction] = [:]
        for (action, keys) in keysByAction {
            for key in keys { byKey[key] = action }
        }
        actionByKey = byKey
    }

    /// The action a key press triggers, or nil when the key is not bound.
    func action(forKey code: UInt32) -> KeyAction? { actionByKey[code] }

    func keys(for action: KeyAction) -> [UInt32] { keysByAction[action] ?? [] }

    /// The bindings with no rig.toml `[keys]` table. PageDown/PageUp are what
    /// presentation clickers send for forward/back; "." is a clicker's blank key.
    static let defaults: KeyBindings = {
        let names: [KeyAction: [String]] = [
            // A ShuttleXpress's middle button and a gamepad's A play and pause; the buttons
            // either side of the middle, and the shoulders, go from marker to marker.
            .playPause: ["Space", "Shuttle3", "PadA"],
            .faster: ["Up", "PageDown"],
            .slower: ["Down", "PageUp"],
            .stop: ["Home"],
            .library: ["Esc"],
            .blank: ["B", "Period"],
            .fontLarger: ["Plus", "KP_Add"],
            .fontSmaller: ["Minus", "KP_Subtract"],
            .mirror: ["M"],
            .flip: ["F"],
            .rotate: ["R"],
            .nextMarker: ["N", "Shuttle4", "PadR"],
            .previousMarker: ["P", "Shuttle2", "PadL"],
            .setMarker: ["K", "Shuttle5"],
            .toStart: ["T", "Shuttle1"],
            .record: ["F9"],
            .follow: ["V"],
            .followRig: ["L"],
        ]
        return KeyBindings(keysByAction: names.mapValues { $0.compactMap(KeyNames.code(for:)) })
    }()

    /// Applies rig.toml's `[keys]` entries over the defaults. An action listed in the
    /// file gets exactly the keys listed (an empty list unbinds it), and a key the file
    /// binds is taken away from whatever default action had it, so
    /// `next_marker = ["PageDown"]` moves PageDown from `faster` without more edits.
    /// Unknown action or key names and a key bound twice are reported with their place;
    /// the rest of the table still applies.
    static func parse(
        bindings: [(action: String, keys: [String], line: Int, column: Int)]
    ) -> (bindings: KeyBindings, problems: [KeyBindingProblem]) {
        var problems: [KeyBindingProblem] = []
        var configured: [KeyAction: [UInt32]] = [:]
        var claimedBy: [UInt32: KeyAction] = [:]
        for entry in bindings {
            guard let action = KeyAction(rawValue: entry.action) else {
                problems.append(KeyBindingProblem(line: entry.line, column: entry.column,
                                                  kind: .unknownAction(entry.action)))
                continue
            }
            var codes = configured[action] ?? []
            for name in entry.keys {
                guard let code = KeyNames.code(for: name) else {
                    problems.append(KeyBindingProblem(line: entry.line, column: entry.column,
                                                      kind: .unknownKey(name, action: action)))
                    continue
                }
                if let other = claimedBy[code], other != action {
                    problems.append(KeyBindingProblem(line: entry.line, column: entry.column,
                                                      kind: .keyBoundTwice(name, first: other, second: action)))
                    continue
                }
                claimedBy[code] = action
                if !codes.contains(code) { codes.append(code) }
            }
            configured[action] = codes
        }
        var result = defaults.keysByAction
        for (action, keys) in result where configured[action] == nil {
            result[action] = keys.filter { claimedBy[$0] == nil }
        }
        for (action, keys) in configured { result[action] = keys }
        return (KeyBindings(keysByAction: result), problems)
    }
}

/// A mistake in rig.toml's `[keys]` table, with the place of the entry it is in.
struct KeyBindingProblem: Error, Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case unknownAction(String)
        case unknownKey(String, action: KeyAction)
        case keyBoundTwice(String, first: KeyAction, second: KeyAction)
    }

    let line: Int
    let column: Int
    let kind: Kind

    /// The message without its place; the config loader prefixes file:line:column.
    var message: String {
        switch kind {
        case let .unknownAction(name):
            let known = KeyAction.allCases.map(\.rawValue).joined(separator: ", ")
            return "unknown action \"\(name)\" in [keys]; known actions: \(known)"
        case let .unknownKey(name, action):
            return "unknown key name \"\(name)\" for \(action.rawValue) in [keys]"
                + " (examples: Space, Up, PageDown, B, Period, Plus, KP_Add, F5)"
        case let .keyBoundTwice(name, first, second):
            return "key \"\(name)\" is bound to both \(first.rawValue) and \(second.rawValue) in [keys]"
        }
    }

    var description: String { "\(line):\(column): \(message)" }
}
