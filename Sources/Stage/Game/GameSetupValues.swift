import Foundation
import Game

/// `rig ctl game setup KEY=VALUE...` applied to settings: each value checked here for
/// its form, the ranges by `GameSettings.problems` (one message per field).
package enum GameSetupValues {
    /// `values` applied over `settings`, or the first malformed value's message.
    package static func apply(_ values: [String: String], to settings: GameSettings)
        -> Result<GameSettings, GameControlError> {
        var result = settings
        for key in values.keys.sorted() {
            guard let text = values[key] else { continue }
            func bad(_ expected: String) -> Result<GameSettings, GameControlError> {
                .failure(.badRequest("game setup: \(key) must be \(expected), found \"\(text)\""))
            }
            switch key {
            case "per_turn":
                guard let value = Int(text) else { return bad("a whole number of challenges (1 to 10)") }
                result.challengesPerTurn = value
            case "response":
                guard let value = Double(text) else { return bad("seconds (2 to 10)") }
                result.responseWindow = value
            case "wpm":
                guard let value = Int(text) else { return bad("words per minute (80 to 450)") }
                result.wordsPerMinute = value
            case "cue":
                guard let value = Double(text) else { return bad("0.5, 0.75 or 1.5 seconds") }
                result.cueDuration = value
            case "mode":
                guard let mode = GameMode(rawValue: text) else { return bad("spoken or visual") }
                result.mode = mode
            case "seated":
                guard let flag = GameControlRequest.flag(text) else { return bad("yes or no") }
                result.seatedOnly = flag
            case "recording":
                // "picture": recording without sound, the host's choice for a rig without a microphone.
                if text == "picture" {
                    result.recording = true
                    result.pictureOnly = true
                } else {
                    guard let flag = GameControlRequest.flag(text) else { return bad("on, picture or off") }
                    result.recording = flag
                    if flag { result.pictureOnly = false }
                }
            case "groups":
                var groups = Set<ActionGroup>()
                for name in text.split(separator: ",") {
                    guard let group = ActionGroup(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                        return bad("a list of " + ActionGroup.allCases.map(\.rawValue).joined(separator: ", "))
                    }
                    groups.insert(group)
                }
                result.groups = groups
            default:
                continue
            }
        }
        return .success(result)
    }

    /// The roster of `players=Ann,Bo,Cy`.
    package static func players(_ text: String) -> [String] {
        text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
