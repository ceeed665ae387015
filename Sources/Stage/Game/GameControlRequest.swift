import Foundation
import Game

/// One game request of the control socket, `{"cmd":"game","action":"select",
/// "card":"hands.wave","rule":"simon"}`; `rig ctl game select card=hands.wave rule=simon`
/// sends the same with every value a string, so values may be strings or JSON.
package enum GameControlRequest: Equatable {
    case open, leave, status
    /// New roster (`players` given) or new settings for the game set up.
    case setup([String: String])
    case consent(player: String, agreed: Bool)
    /// `agreed=norecord`: the player plays without being recorded.
    case playWithoutRecording(player: String)
    case select(ChallengeSelection?)
    case send, stop, retry, next
    /// Ends the game; with `deleteMedia`, its attempts' videos and derived exports go
    /// too (results stay). `delete_media=yes`, or `rig ctl game end --delete-media`.
    case end(deleteMedia: Bool)
    /// Deletes the media of the game in play (or of one ended), results kept.
    case deleteMedia
    /// The verdict on the pending attempt, or (with an attempt id) a correction.
    case verdict(Verdict, attempt: Int?)

    package static let actions = ["open", "leave", "status", "setup", "consent", "select", "send", "stop", "retry",
                                  "verdict", "next", "end", "delete-media"]
    package static let setupKeys = ["host", "players", "per_turn", "response", "wpm", "groups", "seated", "mode",
                                    "cue", "recording"]

    package static func parse(_ json: JSONValue) -> Result<GameControlRequest, GameControlError> {
        guard case let .object(fields) = json, let action = fields["action"]?.stringValue else {
            return .failure(.badRequest("game needs an \"action\": " + actions.joined(separator: ", ")))
        }
        var values: [String: String] = [:]
        for (key, value) in fields where key != "cmd" && key != "action" {
            switch value {
            case let .string(text): values[key] = text
            case let .bool(flag): values[key] = flag ? "true" : "false"
            case .number: values[key] = value.serialized
            default: return .failure(.badRequest("game \(action): \(key) must be a string, number or boolean"))
            }
        }
        switch action {
        case "open": return .success(.open)
        case "leave": return .success(.leave)
        case "status": return .success(.status)
        case "send": return .success(.send)
        case "stop": return .success(.stop)
        case "retry": return .success(.retry)
        case "next": return .success(.next)
        case "end":
            if let unknown = values.keys.sorted().first(where: { $0 != "delete_media" }) {
                return .failure(.badRequest("game end: unknown key \(unknown); the only key is delete_media=yes|no"))
            }
            guard let delete = flag(values["delete_media"] ?? "no") else {
                return .failure(.badRequest("game end: delete_media must be yes or no, found \(values["delete_media"] ?? "")"))
            }
            return .success(.end(deleteMedia: delete))
        case "delete-media": return .success(.deleteMedia)
        case "setup":
            if let unknown = values.keys.sorted().first(where: { !setupKeys.contains($0) }) {
                return .failure(.badRequest("game setup: unknown key \(unknown); keys are " + setupKeys.joined(separator: ", ")))
            }
            return .success(.setup(values))
        case "consent":
            guard let player = values["player"] else { return .failure(.badRequest("game consent needs player=NAME")) }
            if values["agreed"] == "norecord" { return .success(.playWithoutRecording(player: player)) }
            guard let agreed = flag(values["agreed"] ?? "yes") else {
                return .failure(.badRequest("game consent: agreed must be yes, no or norecord, found \(values["agreed"] ?? "")"))
            }
            return .success(.consent(player: player, agreed: agreed))
        case "select": return selection(values).map { .select($0) }
        case "verdict":
            guard let word = values["verdict"], let verdict = Verdict(rawValue: word) else {
                return .failure(.badRequest("game verdict needs verdict=pass, fail or void"))
            }
            guard let text = values["attempt"] else { return .success(.verdict(verdict, attempt: nil)) }
            guard let id = Int(text) else { return .failure(.badRequest("game verdict: attempt must be a number, found \(text)")) }
            return .success(.verdict(verdict, attempt: id))
        default:
            let hint = Suggestion.closest(to: action, in: actions).map { " (did you mean \"\($0)\"?)" } ?? ""
            return .failure(.badRequest("unknown game action \"\(action)\"\(hint)"))
        }
    }

    private static func selection(_ values: [String: String]) -> Result<ChallengeSelection?, GameControlError> {
        guard let card = values["card"], !card.isEmpty else { return .success(nil) }
        var parameters = ActionParameters()
        if let text = values["fingers"] {
            guard let fingers = Int(text) else { return .failure(.badRequest("game select: fingers must be 1 to 5, found \(text)")) }
            parameters.fingers = fingers
        }
        if let text = values["hand"] {
            guard let hand = Hand(rawValue: text) else {
                return .failure(.badRequest("game select: hand must be left, right or either, found \(text)"))
            }
            parameters.hand = hand
        }
        let rule: RuleChoice
        switch values["rule"] ?? "draw" {
        case "simon", "simon-says": rule = .host(.simonSays)
        case "not", "not-said": rule = .host(.notSaid)
        case "draw": rule = .draw
        case let other: return .failure(.badRequest("game select: rule must be simon, not or draw, found \(other)"))
        }
        return .success(ChallengeSelection(cardID: card, parameters: parameters, rule: rule))
    }

    static func flag(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true", "on", "1": true
        case "no", "false", "off", "0": false
        default: nil
        }
    }
}
