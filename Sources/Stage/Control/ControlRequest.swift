import Foundation

/// One request to the rig, e.g. `{"cmd":"speed","value":90}`: the one vocabulary of the
/// control socket, the network remote (HTTP, OSC), the operator's bound keys (`key`)
/// and the console's buttons. The stage answers every one (`RigStage.handle`).
package enum ControlRequest: Equatable {
    case status
    /// The console's screen and where each of its controls is on the inner display, as
    /// last drawn: read-only, for tests and tools that tap the console as a person would.
    case console
    case play, pause, toggle, stop, faster, slower
    case speed(Int)
    case open(String)
    case outer(Bool)
    case blank(Bool)
    case set(key: String, value: String)
    case scripts(search: String?)
    /// The library's folders with how many scripts each holds.
    case folders
    case renameFolder(name: String, to: String)
    /// Deletes a folder; its scripts move to the top level.
    case deleteFolder(String)
    case mode(String)
    /// A cue letter over the camera preview, or nil to clear it.
    case cue(String?)
    /// Speaks the text on the kiosk's sound output (synthesized, then played).
    case speak(String)
    /// The game: `{"cmd":"game","action":"send"}` and the rest (`GameControlRequest`).
    case game(JSONValue)
    /// Starts (after the countdown) or stops a prompter take.
    case record(start: Bool)
    /// The recordings: `list`, `export` (to a folder, or `[recording] export_folder`),
    /// `delete` (no confirmation over the socket).
    case clips(action: String, id: String?, to: String?)
    /// The USB sticks: `list`, or `eject` the one called `name` (its label or mount point).
    case media(action: String, name: String?)
    /// Markers: `jump` to next, prev, start, a number or a name (`to`), `set` one at the
    /// reading line, `clear` the set ones, `list` them with their places.
    case marker(action: String, to: String?)
    /// Speed in words per minute, converted with the current layout's words per pixel.
    case wordsPerMinute(Int)
    /// "Finish in 4:30": the speed fitted to end the rest on time; nil drops the target.
    case finish(String?)
    /// Test aid: stops the event loop dead, so the watchdog has something to catch.
    /// Refused unless the kiosk was started with RIG_TEST_HANG_TRIGGER=1.
    case hang
    /// Voice follow on or off (the kiosk answers it).
    case follow(Bool)
    /// The kiosk's microphone from a WAV file, in real time (voice follow must be on).
    case listen(String)
    /// What the operator's key bound to this action does (rig.toml `[keys]`), as if pressed.
    case key(KeyAction)
    /// The network remote's access: `devices` (paired phones, API keys), `pair` (a new
    /// one-time code, shown on the console for five minutes), `revoke` a phone by `id`.
    case remote(action: String, id: String?)
    /// `start` a self-test on the kiosk's devices (waiting `touch_seconds` for taps), or
    /// the report of the one running or last run.
    case selfTest(start: Bool, touchSeconds: Double?)
    /// This rig's wall clock, for a follower rig's clock-offset check.
    case clock
    /// The open script as this rig read it (its source, format and reading options, and
    /// the hash of its reading text): what a follower rig shows.
    case scriptText
    /// A follower rig's operator takes over here (`local`) or hands back to the lead (`lead`).
    case followRig(local: Bool)

    package struct Invalid: Error, CustomStringConvertible {
        package let description: String
    }

    package static let commands = ["status", "play", "pause", "toggle", "stop", "faster", "slower", "speed",
                           "open", "outer", "blank", "set", "scripts", "folders", "folder", "mode", "cue", "speak",
                           "game", "record", "clips", "media", "marker", "wpm", "finish", "follow", "listen", "key",
                           "remote", "console", "selftest", "clock", "script_text", "follow_rig"]

    package static func parse(_ line: Data) -> Result<ControlRequest, Invalid> {
        guard let json = JSONValue.parse(line), case .object = json else {
            return .failure(Invalid(description: "a request is one JSON object per line, such as {\"cmd\":\"status\"}"))
        }
        guard let command = json["cmd"]?.stringValue else {
            return .failure(Invalid(description: "missing \"cmd\""))
        }
        switch command {
        case "status": return .success(.status)
        case "console": return .success(.console)
        case "play": return .success(.play)
        case "pause": return .success(.pause)
        case "toggle": return .success(.toggle)
        case "stop": return .success(.stop)
        case "faster": return .success(.faster)
        case "slower": return .success(.slower)
        case "speed":
            guard let value = json["value"]?.numberValue, value == value.rounded(), abs(value) < 1e9 else {
                return .failure(Invalid(description: "speed needs an integer \"value\""))
            }
            return .success(.speed(Int(value)))
        case "open":
            guard let path = json["path"]?.stringValue, !path.isEmpty else {
                return .failure(Invalid(description: "open needs a \"path\" relative to the scripts folder"))
            }
            return .success(.open(path))
        case "outer", "blank":
            guard let on = json["on"]?.boolValue else {
                return .failure(Invalid(description: "\(command) needs \"on\": true or false"))
            }
            return .success(command == "outer" ? .outer(on) : .blank(on))
        case "set":
            guard let key = json["key"]?.stringValue, let value = json["value"]?.stringValue else {
                return .failure(Invalid(description: "set needs \"key\" and \"value\" strings"))
            }
            return .success(.set(key: key, value: value))
        case "scripts": return .success(.scripts(search: json["search"]?.stringValue))
        case "folders": return .success(.folders)
        case "folder":
            guard let name = json["name"]?.stringValue else {
                return .failure(Invalid(description: "folder needs the folder's \"name\""))
            }
            switch json["action"]?.stringValue {
            case "delete": return .success(.deleteFolder(name))
            case "rename":
                guard let to = json["to"]?.stringValue else {
                    return .failure(Invalid(description: "folder rename needs the new name in \"to\""))
                }
                return .success(.renameFolder(name: name, to: to))
            default:
                return .failure(Invalid(description: "folder needs \"action\": \"rename\" or \"delete\""))
            }
        case "mode":
            guard let mode = json["mode"]?.stringValue else {
                return .failure(Invalid(description: "mode needs \"mode\""))
            }
            return .success(.mode(mode))
        case "hang": return .success(.hang)
        case "clock": return .success(.clock)
        case "script_text": return .success(.scriptText)
        case "follow_rig":
            switch json["action"]?.stringValue {
            case "local": return .success(.followRig(local: true))
            case "lead": return .success(.followRig(local: false))
            default: return .failure(Invalid(description: "follow_rig needs \"action\": \"local\" (take over here) or \"lead\" (follow again)"))
            }
        case "follow":
            guard let on = json["on"]?.boolValue else {
                return .failure(Invalid(description: "follow needs \"on\": true or false"))
            }
            return .success(.follow(on))
        case "listen":
            guard let path = json["path"]?.stringValue, !path.isEmpty else {
                return .failure(Invalid(description: "listen needs the \"path\" of a WAV file"))
            }
            return .success(.listen(path))
        case "game":
            guard json["action"]?.stringValue != nil else {
                return .failure(Invalid(description: "game needs an \"action\": " + GameControlRequest.actions.joined(separator: ", ")))
            }
            return .success(.game(json))
        case "cue":
            let letter = json["letter"]?.stringValue
            guard letter == nil || letter?.count == 1 else {
                return .failure(Invalid(description: "cue takes one \"letter\", or none to clear it"))
            }
            return .success(.cue(letter))
        case "speak":
            guard let text = json["text"]?.stringValue else {
                return .failure(Invalid(description: "speak takes a \"text\""))
            }
            return .success(.speak(text))
        case "record":
            switch json["action"]?.stringValue {
            case "start": return .success(.record(start: true))
            case "stop": return .success(.record(start: false))
            default: return .failure(Invalid(description: "record needs \"action\": \"start\" or \"stop\""))
            }
        case "clips":
            let action = json["action"]?.stringValue ?? "list"
            let id = json["id"]?.stringValue
            guard ["list", "export", "delete", "replay", "stop", "retry"].contains(action) else {
                return .failure(Invalid(description:
                    "clips takes \"action\": \"list\", \"export\", \"delete\", \"replay\", \"retry\" or \"stop\""))
            }
            guard action == "list" || action == "stop" || id?.isEmpty == false else {
                return .failure(Invalid(description: "clips \(action) needs the clip's \"id\" (from clips list)"))
            }
            return .success(.clips(action: action, id: id, to: json["to"]?.stringValue))
        case "media":
            let action = json["action"]?.stringValue ?? "list"
            let name = json["name"]?.stringValue
            guard action == "list" || action == "eject" else {
                return .failure(Invalid(description: "media takes \"action\": \"list\" or \"eject\""))
            }
            guard action == "list" || name?.isEmpty == false else {
                return .failure(Invalid(description: "media eject needs the stick's \"name\" (from media list)"))
            }
            return .success(.media(action: action, name: name))
        case "wpm":
            guard let value = json["value"]?.numberValue, value == value.rounded(), abs(value) < 1e6 else {
                return .failure(Invalid(description: "wpm needs an integer \"value\", such as 150"))
            }
            return .success(.wordsPerMinute(Int(value)))
        case "finish":
            guard let text = json["in"]?.stringValue else {
                return .failure(Invalid(description: "finish needs \"in\": a duration such as \"4:30\", or \"off\""))
            }
            return .success(.finish(text == "off" ? nil : text))
        case "key":
            guard let name = json["action"]?.stringValue, let action = KeyAction(rawValue: name) else {
                return .failure(Invalid(description: "key needs an \"action\": "
                    + KeyAction.allCases.map(\.rawValue).joined(separator: ", ")))
            }
            return .success(.key(action))
        case "marker":
            let action = json["action"]?.stringValue ?? (json["to"] == nil ? "list" : "jump")
            let to = json["to"]?.stringValue
            guard ["jump", "set", "clear", "list"].contains(action) else {
                return .failure(Invalid(description: "marker takes \"action\": \"jump\", \"set\", \"clear\" or \"list\""))
            }
            guard action != "jump" || to?.isEmpty == false else {
                return .failure(Invalid(description: "marker jump needs \"to\": next, prev, start, a number or a name"))
            }
            return .success(.marker(action: action, to: to))
        case "remote":
            let action = json["action"]?.stringValue ?? "devices"
            guard ["devices", "pair", "revoke"].contains(action) else {
                return .failure(Invalid(description: "remote takes \"action\": \"devices\", \"pair\" or \"revoke\""))
            }
            let id = json["id"]?.stringValue
            guard action != "revoke" || id?.isEmpty == false else {
                return .failure(Invalid(description: "remote revoke needs the device's \"id\" (from remote devices)"))
            }
            return .success(.remote(action: action, id: id))
        case "selftest":
            let action = json["action"]?.stringValue ?? "report"
            guard ["start", "report"].contains(action) else {
                return .failure(Invalid(description: "selftest takes \"action\": \"start\" or \"report\""))
            }
            let touch = json["touch_seconds"]?.numberValue
            if let touch, !(0...600).contains(touch) {
                return .failure(Invalid(description: "selftest \"touch_seconds\" must be 0 to 600"))
            }
            return .success(.selfTest(start: action == "start", touchSeconds: touch))
        default:
            let hint = Suggestion.closest(to: command, in: commands).map { " (did you mean \"\($0)\"?)" } ?? ""
            return .failure(Invalid(description: "unknown command \"\(command)\"\(hint)"))
        }
    }

    /// The JSON line `rig ctl` sends.
    package var json: JSONValue {
        switch self {
        case .status: ["cmd": "status"]
        case .clock: ["cmd": "clock"]
        case .scriptText: ["cmd": "script_text"]
        case let .followRig(local): ["cmd": "follow_rig", "action": local ? "local" : "lead"]
        case .console: ["cmd": "console"]
        case .play: ["cmd": "play"]
        case .pause: ["cmd": "pause"]
        case .toggle: ["cmd": "toggle"]
        case .stop: ["cmd": "stop"]
        case .faster: ["cmd": "faster"]
        case .slower: ["cmd": "slower"]
        case let .speed(value): ["cmd": "speed", "value": .int(value)]
        case let .open(path): ["cmd": "open", "path": .string(path)]
        case let .outer(on): ["cmd": "outer", "on": .bool(on)]
        case let .blank(on): ["cmd": "blank", "on": .bool(on)]
        case let .set(key, value): ["cmd": "set", "key": .string(key), "value": .string(value)]
        case let .scripts(search): ["cmd": "scripts", "search": .optional(search)]
        case .folders: ["cmd": "folders"]
        case let .renameFolder(name, to): ["cmd": "folder", "action": "rename", "name": .string(name), "to": .string(to)]
        case let .deleteFolder(name): ["cmd": "folder", "action": "delete", "name": .string(name)]
        case let .mode(mode): ["cmd": "mode", "mode": .string(mode)]
        case let .cue(letter): ["cmd": "cue", "letter": .optional(letter)]
        case .hang: ["cmd": "hang"]
        case let .follow(on): ["cmd": "follow", "on": .bool(on)]
        case let .listen(path): ["cmd": "listen", "path": .string(path)]
        case let .speak(text): ["cmd": "speak", "text": .string(text)]
        case let .game(json): json
        case let .record(start): ["cmd": "record", "action": .string(start ? "start" : "stop")]
        case let .clips(action, id, to): ["cmd": "clips", "action": .string(action), "id": .optional(id), "to": .optional(to)]
        case let .media(action, name): ["cmd": "media", "action": .string(action), "name": .optional(name)]
        case let .marker(action, to): ["cmd": "marker", "action": .string(action), "to": .optional(to)]
        case let .wordsPerMinute(value): ["cmd": "wpm", "value": .int(value)]
        case let .finish(text): ["cmd": "finish", "in": .string(text ?? "off")]
        case let .key(action): ["cmd": "key", "action": .string(action.rawValue)]
        case let .remote(action, id): ["cmd": "remote", "action": .string(action), "id": .optional(id)]
        case let .selfTest(start, touch):
            ["cmd": "selftest", "action": .string(start ? "start" : "report"), "touch_seconds": touch.map(JSONValue.number) ?? .null]
        }
    }
}

/// One reply: `{"ok":true,...}` or `{"ok":false,"error":"..."}`.
package struct ControlReply: Equatable {
    package var body: JSONValue

    package init(body: JSONValue) { self.body = body }

    package static func success(_ fields: [String: JSONValue] = [:]) -> ControlReply {
        var members = fields
        members["ok"] = .bool(true)
        return ControlReply(body: .object(members))
    }

    package static func failure(_ message: String) -> ControlReply {
        ControlReply(body: ["ok": false, "error": .string(message)])
    }

    package var line: Data { Data((body.serialized + "\n").utf8) }
}

extension ControlRequest {
    /// Requests by which a follower's own operator moves the text: they take it over.
    var takesOverFromLead: Bool {
        switch self {
        case .play, .pause, .toggle, .stop, .faster, .slower, .speed, .open, .wordsPerMinute, .finish: true
        case let .marker(action, _): action == "jump"
        case let .key(action): [.playPause, .faster, .slower, .stop, .nextMarker, .previousMarker, .toStart].contains(action)
        default: false
        }
    }

    /// Requests that would start or move the prompter's text.
    var movesThePrompter: Bool {
        switch self {
        case .play, .toggle, .faster, .slower, .speed, .open, .wordsPerMinute, .finish, .key: true
        case let .marker(action, _): action == "jump"

        default: false
        }
    }

    /// Requests that set the speed, refused while a hand controller steers it.
    var setsTheSpeed: Bool {
        switch self {
        case .faster, .slower, .speed, .wordsPerMinute, .finish: true
        default: false
        }
    }
}
