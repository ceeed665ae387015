import Foundation
import Game
import Render

/// The host's requests to the game, one way in: `rig ctl game`, the remote's game page
/// and the console's Game screen all arrive here, and a Game screen button that has a
/// request of its own goes as that request, so each thing is done one way. A refused
/// request says why and changes nothing; on the console the reason is the game's notice.
/// End game asks whether this game's media go too (clips and derived exports; results
/// and scores stay, as retention keeps them); a file a replay or an export holds is
/// removed by the kiosk when it is let go.
package final class GameDesk {
    let game: GameController
    let console: ConsoleController
    let clips: ClipsController
    /// A new game records by default where a camera is configured.
    let cameraEnabled: Bool
    /// The stage opens the game (the prompter stops, the outer shows the participant
    /// view) or leaves it.
    var open: () -> Void = {}
    var leave: () -> Void = {}
    var outerRefreshMillihertz: () -> Int? = { nil }

    init(game: GameController, console: ConsoleController, clips: ClipsController, cameraEnabled: Bool) {
        self.game = game
        self.console = console
        self.clips = clips
        self.cameraEnabled = cameraEnabled
        wireScreens()
    }

    /// The console's Game and Clips screens act through the desk, and Clips lists the
    /// open game's clips.
    private func wireScreens() {
        console.gameAction = { [unowned self] id, delta, state in widget(id, delta: delta, state: state) }
        console.gameShown = { [unowned self] shown in if shown { open() } else { leave() } }
        console.isGameOpen = { [unowned self] in game.isOpen }
        console.clipsWaitForAttempt = { [unowned self] in
            guard game.session?.phase.isCapturing == true else { return false }
            game.notice = "Clips opens between attempts: this one is still running"
            console.gameChanged()
            return true
        }
        console.clipsAction = { [unowned self] id, state in
            // Back from Clips goes where it came from: the game while it is open.
            clips.widget(id, state: state, back: game.isOpen ? .show(.game) : .leave)
        }
        console.clipsShown = { [unowned self] shown in clips.screenShown(shown) }
        // The open game's own session, never a guess from the clips on disk: a new game
        // with nothing recorded lists nothing.
        clips.currentGame = { [unowned self] in game.session != nil ? game.sessionID : nil }
    }

    /// The game's part of `rig ctl status` and of every game reply.
    package var status: JSONValue {
        GameStatusReport(game: game, outerRefreshMillihertz: outerRefreshMillihertz()).json
    }

    /// A request of `rig ctl game`, the remote's game page or a Game screen button.
    package func handle(_ json: JSONValue) -> ControlReply {
        switch GameControlRequest.parse(json) {
        case let .failure(error): return .failure(error.description)
        case let .success(request):
            let deletion: GameMediaDeletion?
            do {
                deletion = try perform(request)
            } catch {
                return .failure(error.description)
            }
            guard let deletion else { return .success(["game": status]) }
            return .success(["game": status, "media": GameStatusReport.json(deletion)])
        }
    }

    /// Carries out a request; a media deletion says what it did.
    private func perform(_ request: GameControlRequest) throws(GameControlError) -> GameMediaDeletion? {
        switch request {
        case let .end(deleteMedia):
            let deletion = try game.endGame(deletingMedia: deleteMedia)
            gameMediaDeleted(deletion)
            return deletion
        case .deleteMedia:
            let deletion = try game.deleteGameMedia()
            gameMediaDeleted(deletion)
            return deletion
        default:
            try performOther(request)
            return nil
        }
    }

    private func performOther(_ request: GameControlRequest) throws(GameControlError) {
        switch request {
        case .status: return
        case .open: try requireGame(); open()
        case .leave: leave()
        case let .setup(values): try setUpGame(values)
        case let .consent(player, agreed): try game.perform(.consent(player: player, agreed: agreed))
        case let .playWithoutRecording(player): try game.perform(.playWithoutRecording(player: player))
        case let .select(selection): try game.perform(.select(selection))
        case .send: try game.perform(.send)
        case .stop: try game.perform(.stop)
        case .retry: try game.perform(.retry)
        case .next: try game.perform(.next)
        case .end, .deleteMedia: return
        case let .verdict(verdict, nil): try game.perform(.judge(verdict))
        case let .verdict(verdict, attempt?): try game.perform(.correct(attempt: attempt, verdict))
        }
    }

    private func requireGame() throws(GameControlError) {
        if game.session == nil { throw .noGame }
    }

    /// With `players`, a new game (recording on by default where a camera is
    /// configured); without, new settings for the game set up.
    private func setUpGame(_ values: [String: String]) throws(GameControlError) {
        if let players = values["players"] {
            var base = GameSettings()
            base.recording = cameraEnabled
            let chosen = try GameSetupValues.apply(values, to: base).get()
            try game.start(GameSetup(host: values["host"] ?? "Host", players: GameSetupValues.players(players),
                                     settings: chosen))
        } else {
            guard let session = game.session else { throw .noGame }
            if values["host"] != nil { throw .badRequest("game setup: the host is set with the players (a new game)") }
            let chosen = try GameSetupValues.apply(values, to: session.settings).get()
            try game.perform(.changeSettings(chosen))
        }
        open()
    }

    // MARK: the Game screen

    /// A Game screen button with a request of its own goes as that request, so the
    /// console, the socket and the remote do one thing one way; a refusal is the notice.
    private func gameRequest(_ fields: [String: JSONValue]) throws(GameControlError) {
        var json = fields
        json["cmd"] = "game"
        let reply = handle(.object(json))
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

    /// A Game screen control (`game:ACTION[:ARGUMENT]`), `delta` its step, as the console
    /// stands in `state`: what the console changes for it (a page, a dialog, the draft).
    func widget(_ id: WidgetID, delta: Int, state: ConsoleState) -> ConsoleCommand {
        let parts = id.split(separator: ":", maxSplits: 2).map(String.init)
        guard parts.count >= 2, parts[0] == "game" else { return .none }
        let argument = parts.count > 2 ? parts[2] : ""
        var command = ConsoleCommand.none
        do throws(GameControlError) {
            game.notice = nil
            switch parts[1] {
            case "new":
                try game.start(defaultSetup)
                command = consentPageIfRecording()
            case "page": command = gamePage(GamePage(rawValue: argument) ?? .dashboard)
            case "consent-done": command = gamePage(.dashboard)
            case "player": command = try editRoster(argument, draft: state.gameDraft)
            case "start":
                try game.start(draftSetup(state.gameDraft))
                command = consentPageIfRecording()
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
                let media = game.mediaCount
                command = .change { $0.dialog = .endGame(media: media); $0.focus = "dialog:cancel" }
            case "delete-media":
                let media = game.mediaCount
                command = .change { $0.dialog = .deleteGameMedia(media: media); $0.focus = "dialog:cancel" }
            case "answer":
                try answerGameDialog(argument)
                return .none
            case "verdict":
                guard Verdict(rawValue: argument) != nil else { return .none }
                try gameRequest(["action": "verdict", "verdict": .string(argument)])
            case "correct":
                // "ID:VERDICT": the attempt's new verdict (the scores follow it).
                let fields = argument.split(separator: ":").map(String.init)
                guard let attemptID = Int(fields.first ?? ""), let verdict = fields.last.flatMap(Verdict.init(rawValue:))
                else { return .none }
                try gameRequest(["action": "verdict", "verdict": .string(verdict.rawValue), "attempt": .int(attemptID)])
            case "consent":
                let fields = argument.split(separator: ":", maxSplits: 1).map(String.init)
                guard fields.count == 2 else { return .none }
                let agreed = fields[0] == "yes" ? "yes" : fields[0] == "norecord" ? "norecord" : "no"
                try gameRequest(["action": "consent", "player": .string(fields[1]), "agreed": .string(agreed)])
            case "set":
                guard let setting = GameScreen.Setting(rawValue: argument) else { return .none }
                command = try changeSettings(draft: state.gameDraft) { setting.stepped($0, by: delta == 0 ? 1 : delta) }
            case "setgroup":
                guard let group = ActionGroup(rawValue: argument) else { return .none }
                command = try changeSettings(draft: state.gameDraft) { settings in
                    var next = settings
                    if next.groups.contains(group) { next.groups.remove(group) } else { next.groups.insert(group) }
                    return next
                }
            default:
                return .none
            }
        } catch {
            game.notice = error.description
        }
        console.gameChanged()
        return command
    }

    /// The Setup page's roster as a game setup: the console's `draft`, with the settings
    /// of the game in play where there is one.
    private func draftSetup(_ draft: GameSetup?) -> GameSetup {
        var draft = draft ?? defaultSetup
        if let session = game.session { draft.settings = session.settings }
        return draft
    }

    /// A new game's setup: the last game's host (typed once a party), two players.
    private var defaultSetup: GameSetup {
        var settings = GameSettings()
        settings.recording = cameraEnabled
        return GameSetup(host: game.session?.setup.host ?? "Host", players: ["Player 1", "Player 2"], settings: settings)
    }

    /// The Game screen's `page` shown.
    private func gamePage(_ page: GamePage) -> ConsoleCommand {
        // The draft starts from the game in play (or the defaults) each time Setup opens.
        let fresh = page == .setup ? game.session?.setup ?? defaultSetup : nil
        return .change {
            if let fresh, $0.gamePage != .setup { $0.gameDraft = fresh }
            $0.gamePage = page
            $0.focus = nil
        }
    }

    /// Before any camera use: a new game that records opens on the Consent page.
    private func consentPageIfRecording() -> ConsoleCommand {
        gamePage(game.session?.settings.recording == true ? .consent : .dashboard)
    }

    /// `add`, `up:N`, `down:N`, `remove:N` on the draft's roster (names are typed in
    /// their fields). Refused with the reason at the roster's limits.
    private func editRoster(_ argument: String, draft: GameSetup?) throws(GameControlError) -> ConsoleCommand {
        var draft = draft ?? draftSetup(nil)
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
            return .none
        }
        return .change { [draft] in
            $0.gameDraft = draft
            let moved = fields.first == "up" ? (index ?? 0) - 1 : fields.first == "down" ? (index ?? 0) + 1 : nil
            if let moved, fields.first != nil { $0.focus = "game:player:\(fields[0]):\(moved)" }
        }
    }

    /// A setting of the game in play, or of the draft before a game starts; a value the
    /// game refuses is not taken, and the reason shown; a new `draft` goes to the console.
    private func changeSettings(draft: GameSetup?, _ change: (GameSettings) -> GameSettings) throws(GameControlError)
        -> ConsoleCommand {
        if let session = game.session {
            try game.perform(.changeSettings(change(session.settings)))
            return .none
        }
        var draft = draft ?? defaultSetup
        let next = change(draft.settings)
        let problems = next.problems(catalog: game.catalog)
        guard problems.isEmpty else { throw .refused(.invalidSettings(problems)) }
        draft.settings = next
        return .change { [draft] in $0.gameDraft = draft }
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

    // MARK: a game's media

    /// The end-of-game dialog's answer: `confirm` deletes (and ends, from End game),
    /// `keep` ends and keeps the media.
    func answerGameDialog(_ answer: String) throws(GameControlError) {
        defer { console.gameChanged() }
        switch (answer, game.session?.ended == true) {
        case ("confirm", false): gameMediaDeleted(try game.endGame(deletingMedia: true))
        case ("confirm", true): gameMediaDeleted(try game.deleteGameMedia())
        case ("keep", false):
            try game.endGame(deletingMedia: false)
            game.notice = "The game has ended; its media are kept (Clips, or rig ctl game delete-media)."
        default: return
        }
    }

    /// After a game's media went: the host's notice, the journal, and the clips read again
    /// (the kiosk lists them without video from now on).
    func gameMediaDeleted(_ deletion: GameMediaDeletion?) {
        guard let deletion else { return }
        game.notice = deletion.description
        KioskLog.notice("game \(game.sessionID): \(deletion.description)")
        clips.refresh()
        console.gameChanged()
    }
}
