import Foundation
import Game
import Render

/// The Game screen's controls applied to the game. A refusal is shown on the screen
/// (the game's own words) and changes nothing.
extension RigStage {
    /// A Game screen button with a request of its own goes as that request, so the
    /// console, the socket and the remote do one thing one way; a refusal is the notice.
    private func gameRequest(_ fields: [String: JSONValue]) throws(GameControlError) {
        var json = fields
        json["cmd"] = "game"
        let reply = handle(.game(.object(json)))
        guard reply.body["ok"]?.boolValue == true else {
            throw .badRequest(reply.body["error"]?.stringValue ?? "refused")
        }
    }

    /// The rule as `rig ctl game select rule=` names it.
    static func ruleName(_ rule: RuleChoice) -> String {
        switch rule {
        case .host(.simonSays): "simon"
        case .host(.notSaid): "not"
        default: "draw"
        }
    }

    func gameWidget(_ id: WidgetID, delta: Int) {
        let parts = id.split(separator: ":", maxSplits: 2).map(String.init)
        guard parts.count >= 2, parts[0] == "game" else { return }
        let argument = parts.count > 2 ? parts[2] : ""
        do throws(GameControlError) {
            game.notice = nil
            switch parts[1] {
            case "new":
                try game.start(defaultSetup)
                askConsentIfRecording()
            case "page": showGamePage(GamePage(rawValue: argument) ?? .dashboard)
            case "consent-done": showGamePage(.dashboard)
            case "player": try editRoster(argument)
            case "start":
                try game.start(draftSetup)
                askConsentIfRecording()
            case "card":
                try gameRequest(["action": "select", "card": .string(argument),
                                 "rule": .string(Self.ruleName(game.session?.selection?.rule ?? .draw))])
            case "rule":
                guard let selection = game.session?.selection else { throw .badRequest("Select an action first") }
                var fields: [String: JSONValue] = ["action": "select", "card": .string(selection.cardID), "rule": .string(argument)]
                if let fingers = selection.parameters.fingers { fields["fingers"] = .int(fingers) }
                if let hand = selection.parameters.hand { fields["hand"] = .string(hand.rawValue) }
                try gameRequest(fields)
            case "param": try changeParameter(argument, delta: delta)
            case "send", "stop", "retry", "next": try gameRequest(["action": .string(parts[1])])
            case "end":
                console.update { $0.dialog = .endGame(media: game.mediaCount); $0.focus = "dialog:cancel" }
            case "delete-media":
                console.update { $0.dialog = .deleteGameMedia(media: game.mediaCount); $0.focus = "dialog:cancel" }
            case "answer":
                try answerGameDialog(argument)
                return
            case "verdict":
                guard Verdict(rawValue: argument) != nil else { return }
                try gameRequest(["action": "verdict", "verdict": .string(argument)])
            case "correct":
                // "ID:VERDICT": the attempt's new verdict (the scores follow it).
                let fields = argument.split(separator: ":").map(String.init)
                guard let attemptID = Int(fields.first ?? ""), let verdict = fields.last.flatMap(Verdict.init(rawValue:))
                else { return }
                try gameRequest(["action": "verdict", "verdict": .string(verdict.rawValue), "attempt": .int(attemptID)])
            case "consent":
                let fields = argument.split(separator: ":", maxSplits: 1).map(String.init)
                guard fields.count == 2 else { return }
                let agreed = fields[0] == "yes" ? "yes" : fields[0] == "norecord" ? "norecord" : "no"
                try gameRequest(["action": "consent", "player": .string(fields[1]), "agreed": .string(agreed)])
            case "set":
                guard let setting = GameScreen.Setting(rawValue: argument) else { return }
                try changeSettings { setting.stepped($0, by: delta == 0 ? 1 : delta) }
            case "setgroup":
                guard let group = ActionGroup(rawValue: argument) else { return }
                try changeSettings { settings in
                    var next = settings
                    if next.groups.contains(group) { next.groups.remove(group) } else { next.groups.insert(group) }
                    return next
                }
            default:
                return
            }
        } catch {
            game.notice = error.description
        }
        console.gameChanged()
    }

    /// The Setup page's roster as a game setup: the draft, with the settings of the
    /// game in play where there is one.
    private var draftSetup: GameSetup {
        var draft = console.state.gameDraft ?? defaultSetup
        if let session = game.session { draft.settings = session.settings }
        return draft
    }

    /// A new game's setup: the last game's host (typed once a party), two players.
    private var defaultSetup: GameSetup {
        var settings = GameSettings()
        settings.recording = self.settings.cameraEnabled
        return GameSetup(host: game.session?.setup.host ?? "Host", players: ["Player 1", "Player 2"], settings: settings)
    }

    private func showGamePage(_ page: GamePage) {
        console.update {
            // The draft starts from the game in play (or the defaults) each time Setup opens.
            if page == .setup && $0.gamePage != .setup { $0.gameDraft = game.session?.setup ?? defaultSetup }
            $0.gamePage = page
            $0.focus = nil
        }
    }

    /// Before any camera use: a new game that records opens on the Consent page.
    private func askConsentIfRecording() {
        showGamePage(game.session?.settings.recording == true ? .consent : .dashboard)
    }

    /// `add`, `up:N`, `down:N`, `remove:N` on the draft's roster (names are typed in
    /// their fields). Refused with the reason at the roster's limits.
    private func editRoster(_ argument: String) throws(GameControlError) {
        var draft = console.state.gameDraft ?? draftSetup
        let fields = argument.split(separator: ":").map(String.init)
        let index = fields.count > 1 ? Int(fields[1]) : nil
        switch (fields.first, index) {
        case ("add", _):
            guard draft.players.count < GameSetup.playerRange.upperBound else {
                throw .badRequest("At most \(GameSetup.playerRange.upperBound) players")
            }
            draft.players.append("Player \(draft.players.count + 1)")
        case let ("remove", index?) where draft.players.indices.contains(index):
            guard draft.players.count > GameSetup.playerRange.lowerBound else {
                throw .badRequest("A game needs at least \(GameSetup.playerRange.lowerBound) players")
            }
            draft.players.remove(at: index)
        case let ("up", index?) where index > 0 && index < draft.players.count:
            draft.players.swapAt(index, index - 1)
        case let ("down", index?) where index + 1 < draft.players.count:
            draft.players.swapAt(index, index + 1)
        default:
            return
        }
        console.update {
            $0.gameDraft = draft
            let moved = fields.first == "up" ? (index ?? 0) - 1 : fields.first == "down" ? (index ?? 0) + 1 : nil
            if let moved, fields.first != nil { $0.focus = "game:player:\(fields[0]):\(moved)" }
        }
    }

    /// A setting of the game in play, or of the draft before a game starts; a value the
    /// game refuses is not taken, and the reason shown.
    private func changeSettings(_ change: (GameSettings) -> GameSettings) throws(GameControlError) {
        if let session = game.session {
            try game.perform(.changeSettings(change(session.settings)))
            return
        }
        var draft = console.state.gameDraft ?? defaultSetup
        let next = change(draft.settings)
        let problems = next.problems(catalog: game.catalog)
        guard problems.isEmpty else { throw .refused(.invalidSettings(problems)) }
        draft.settings = next
        console.update { $0.gameDraft = draft }
    }

    /// `fingers` stepped by `delta`, or `hand:NAME`, on the selected card.
    private func changeParameter(_ argument: String, delta: Int) throws(GameControlError) {
        guard let selection = game.session?.selection,
              let card = game.catalog?.card(id: selection.cardID) else { throw .badRequest("Select an action first") }
        var parameters = selection.parameters
        if argument == "fingers" {
            let current = parameters.fingers ?? card.parameters.fingers ?? 1
            parameters.fingers = current + (delta == 0 ? 1 : delta)
        } else if argument.hasPrefix("hand:"), let hand = Hand(rawValue: String(argument.dropFirst(5))) {
            parameters.hand = hand
        }
        try game.perform(.select(ChallengeSelection(cardID: selection.cardID, parameters: parameters, rule: selection.rule)))
    }
}
