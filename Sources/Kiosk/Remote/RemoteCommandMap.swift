import Foundation
import Stage

/// How a remote address (`/api/speed/90`, `/rig/speed 90`) becomes the control
/// socket's JSON request (`{"cmd":"speed","value":90}`). Only the shape changes here:
/// `ControlRequest.parse` and the kiosk's one handler decide what the request means.
enum RemoteCommandMap {
    /// The field a command's first argument fills: `/api/open/Welcome.md` is
    /// `{"cmd":"open","path":"Welcome.md"}`.
    static let mainField: [String: String] = [
        "speed": "value", "open": "path", "outer": "on", "blank": "on", "mode": "mode", "cue": "letter",
        "game": "action", "record": "action", "clips": "action", "scripts": "search", "folder": "action",
        "speak": "text", "follow": "on", "marker": "to", "wpm": "value", "finish": "in", "key": "action", "follow_rig": "action",
    ]

    /// The field of a game action's argument: `/api/game/verdict/pass`.
    static let gameField: [String: String] = ["verdict": "verdict", "select": "card", "consent": "player"]

    /// Fields whose text means a boolean or a number when it comes from a URL or OSC.
    private static func typed(_ field: String, _ command: String, _ text: String) -> JSONValue {
        if field == "on", let flag = flag(text) { return .bool(flag) }
        if command == "speed" || command == "wpm", field == "value", let number = Double(text) { return .number(number) }
        return .string(text)
    }

    static func flag(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "on", "yes", "1": true
        case "false", "off", "no", "0": false
        default: nil
        }
    }

    /// The request for `command` with positional `arguments` (path segments after the
    /// command, then OSC arguments) and named `fields` (query, JSON body).
    static func request(command: String, arguments: [JSONValue], fields: [String: JSONValue]) -> JSONValue {
        var members = fields
        members["cmd"] = .string(command)
        var queue = arguments
        if let field = mainField[command], !queue.isEmpty {
            let first = queue.removeFirst()
            members[field] = retyped(first, field: field, command: command)
            if command == "game", let action = first.stringValue, let second = gameField[action], !queue.isEmpty {
                members[second] = queue.removeFirst()
            }
        }
        for (key, value) in members where key != "cmd" {
            members[key] = retyped(value, field: key, command: command)
        }
        return .object(members)
    }

    private static func retyped(_ value: JSONValue, field: String, command: String) -> JSONValue {
        switch value {
        case let .string(text): return typed(field, command, text)
        case let .number(x) where field == "on": return .bool(x != 0)
        default: return value
        }
    }
}
