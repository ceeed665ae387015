import Foundation
import Game
import Render

/// The Game screen's controls applied to the game. A refusal is shown on the screen
/// (the game's own words) and changes nothing.
extension RigStage {
    func gameWidget(_ id: WidgetID, delta: Int) {
        let parts = id.split(separator: ":", maxSplits: 2).map(String.init)
        guard parts.count >= 2, parts[0] == "game" else { return }
        let argument = parts.count > 2 ? parts[2] : ""
        do throws(GameControlError) {
            game.notice = nil
            switch parts[1] {
            case "new":
                var settings = GameSettings()
                settings.recording = self.settings.cameraEnabled
                try game.start(GameSetup(host: "Host", players: ["Player 1", "Player 2"], settings: settings))
            case "card":
                let rule = game.session?.selection?.rule ?? .draw
                try game.perform(.select(ChallengeSelection(cardID: argument, rule: rule)))
            case "rule":
                guard let selection = game.session?.selection else { throw .badRequest("Select an action first") }
                let rule: RuleChoice = argument == "simon" ? .host(.simonSays) : argument == "not" ? .host(.notSaid) : .draw
                try game.perform(.select(ChallengeSelection(cardID: selection.cardID, parameters: selection.parameters,
                                                            rule: rule)))
            case "send": try game.perform(.send)
            case "stop": try game.perform(.stop)
            case "retry": try game.perform(.retry)
            case "next": try game.perform(.next)
            case "verdict":
                guard let verdict = Verdict(rawValue: argument) else { return }
                try game.perform(.judge(verdict))
            case "correct":
                // Swaps pass and fail of an attempt already judged.
                guard let attemptID = Int(argument),
                      let attempt = game.session?.attempts.first(where: { $0.id == attemptID }) else { return }
                try game.perform(.correct(attempt: attemptID, attempt.verdict == .pass ? Verdict.fail : Verdict.pass))
            case "consent":
                let agreed = game.session?.consent.hasAgreed(argument) == true
                try game.perform(.consent(player: argument, agreed: !agreed))
            case "set":
                guard let setting = GameScreen.Setting(rawValue: argument), let session = game.session else { return }
                try game.perform(.changeSettings(setting.stepped(session.settings, by: delta == 0 ? 1 : delta)))
            default:
                return
            }
        } catch {
            game.notice = error.description
        }
        console.gameChanged()
    }
}
