import Foundation
import Stage

/// The part of the status a remote panel shows live: transport, position, speed,
/// script, mode, the outer display, the game's phase, markers where the status has
/// them, and the reading anchor a follower rig tracks. Computed from the same status report `rig ctl status` gives.
struct LiveState: Equatable {
    let json: JSONValue

    init(status: JSONValue) {
        let prompter = status["prompter"]
        var fields: [String: JSONValue] = [
            "mode": status["mode"] ?? .null,
            "state": prompter?["state"] ?? .null,
            "offset": prompter?["offset"] ?? .null,
            "max_offset": prompter?["max_offset"] ?? .null,
            "speed": prompter?["speed"] ?? .null,
            "script": prompter?["script"] ?? .null,
            "title": prompter?["title"] ?? .null,
            "ended": prompter?["ended"] ?? .null,
            "blanked": prompter?["blanked"] ?? .null,
            "outer": status["displays"]?["outer"]?["enabled"] ?? .null,
            "game": [
                "open": status["game"]?["open"] ?? .null,
                "phase": status["game"]?["phase"] ?? .null,
                "player": status["game"]?["player"] ?? .null,
                "allowed": status["game"]?["allowed"] ?? .array([]),
            ],
        ]
        if let markers = prompter?["markers"] { fields["markers"] = markers }
        // Where the reading line is in the text, for follower rigs (ReadingAnchor).
        fields["anchor"] = prompter?["anchor"] ?? .null
        json = .object(fields)
    }

    /// The same state with the position left out: what changes only by an action.
    /// (The anchor moves with the position and carries the time it was read.)
    var withoutPosition: JSONValue {
        guard case var .object(fields) = json else { return json }
        fields["offset"] = nil
        fields["anchor"] = nil
        return .object(fields)
    }
}
