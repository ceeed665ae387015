import Foundation
import Game
import Render

/// The Game screen's Setup page. On the left the host's name (typed in its field; the
/// clips and the journal name the host by it) and the roster (add, rename by typing in a
/// name's field, move up or down, remove) with each name's problem next to it, and
/// Start, which begins a game with it (a game in play keeps its roster, so the new
/// roster means a new game). On the right every setting with what it means, the
/// action groups, and why the last step was refused.
enum GameSetupScreen {
    /// Refusals and problems: light enough to read on the console's dark panel.
    static let refusedText = Color(rgb: 0xff9a8a)
    /// The name fields, typed into with the keyboard (`GameKeys`).
    static let hostNameField = "game:host:name"
    static let playerNamePrefix = "game:player:name:"

    static func build(_ model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        let draft = model.state.gameDraft ?? GameSetup(host: "Host", players: ["Player 1", "Player 2"])
        let left = PixelRect(x: area.x, y: area.y, width: area.width * 2 / 5 - theme.gap, height: area.height)
        let right = PixelRect(x: left.maxX + theme.gap * 2, y: area.y, width: area.maxX - left.maxX - theme.gap * 2,
                              height: area.height)
        roster(draft, model: model, panel: panel, area: left)
        settings(model.game.session?.settings ?? draft.settings, model: model, panel: panel, area: right)
    }

    private static func roster(_ draft: GameSetup, model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        let row = theme.rowHeight * 3 / 4
        let problems = draft.problems(catalog: model.game.catalog)
        var y = area.y
        let labelWidth = area.width / 4
        panel.text("Host", in: PixelRect(x: area.x, y: y, width: labelWidth, height: row),
                   size: theme.smallTextSize, color: theme.secondaryText)
        panel.textField(hostNameField,
                        in: PixelRect(x: area.x + labelWidth, y: y, width: area.width - labelWidth, height: row - 2),
                        text: draft.host, placeholder: "The host's name")
        y += row + theme.gap
        panel.text("Players, in turn order", in: PixelRect(x: area.x, y: y, width: area.width, height: row),
                   size: theme.smallTextSize, color: theme.secondaryText)
        y += row
        let small = row + theme.gap
        let nameWidth = area.width - small * 3 - theme.gap * 3
        for (index, name) in draft.players.enumerated() {
            guard y <= area.maxY - row * 4 else { break }
            panel.textField(playerNamePrefix + "\(index)", in: PixelRect(x: area.x, y: y, width: nameWidth, height: row - 2),
                            text: name, placeholder: "Name of player \(index + 1)")
            var x = area.x + nameWidth + theme.gap
            for (action, title) in [("up", "↑"), ("down", "↓"), ("remove", "✕")] {
                panel.button("game:player:\(action):\(index)", title, in: PixelRect(x: x, y: y, width: small, height: row - 2),
                             group: "game-roster")
                x += small + theme.gap
            }
            y += row
            if let problem = problems.first(where: { $0.field == .player(index) }) {
                panel.text(problem.reason, in: PixelRect(x: area.x + theme.gap, y: y, width: area.width, height: row * 2 / 3),
                           size: theme.smallTextSize, color: refusedText)
                y += row * 2 / 3
            }
        }
        panel.button("game:player:add", "Add player", in: PixelRect(x: area.x, y: y, width: area.width / 2, height: row - 2),
                     group: "game-roster")
        y += row + theme.gap
        let running = model.game.session != nil
        panel.button("game:start", running ? "Start a new game" : "Start game",
                     in: PixelRect(x: area.x, y: y, width: area.width, height: theme.rowHeight), style: .primary,
                     group: "game-roster")
        y += theme.rowHeight + theme.gap
        var lines = problems.filter { $0.field == .players || $0.field == .host }.map(\.description)
        if running { lines.append("A game in play keeps its players: starting a new game sets every score to zero.") }
        if !lines.isEmpty {
            panel.text(lines.joined(separator: "\n"), x: area.x, y: y, size: theme.smallTextSize, color: theme.secondaryText,
                       maxWidth: area.width)
        }
    }

    private static func settings(_ settings: GameSettings, model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        let row = theme.rowHeight * 3 / 4
        let help = row * 2 / 3
        var y = area.y
        if let notice = model.game.notice {
            y += panel.text(notice, x: area.x, y: y, size: theme.smallTextSize, color: refusedText, maxWidth: area.width)
                + theme.gap
        }
        for setting in GameScreen.Setting.allCases {
            if setting == .cue && settings.mode != .visual { continue }
            panel.stepper(setting.id, in: PixelRect(x: area.x, y: y, width: area.width, height: row - 2),
                          label: setting.label, value: setting.value(settings), group: "game-setup")
            y += row
            panel.text(setting.help(settings), in: PixelRect(x: area.x + theme.gap, y: y, width: area.width - theme.gap, height: help),
                       size: theme.smallTextSize, color: theme.secondaryText)
            y += help
        }
        y += theme.gap
        let groups = ActionGroup.allCases
        let width = area.width / max(1, groups.count) - theme.gap
        for (index, group) in groups.enumerated() {
            panel.button("game:setgroup:\(group.rawValue)", group.title,
                         in: PixelRect(x: area.x + index * (width + theme.gap), y: y, width: width, height: row - 2),
                         isOn: settings.groups.contains(group), group: "game-setup")
        }
        y += row
        panel.text("Action groups offered in the picker (at least one).",
                   in: PixelRect(x: area.x + theme.gap, y: y, width: area.width - theme.gap, height: help),
                   size: theme.smallTextSize, color: theme.secondaryText)
    }
}
