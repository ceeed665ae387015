import Foundation
import Game
import Render

/// The Game screen's right column: what the participant sees now (in words; the
/// preview never acknowledges a cue), consent per player, the setup values with what
/// each means, and the scoreboard per player.
enum GameSidePanel {
    static func build(_ session: GameSession, model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        let row = theme.rowHeight * 3 / 4
        var y = area.y
        let view = session.participantPresentation(at: model.time)
        var seen = "Participant sees: \(view.status)"
        if let countdown = view.countdown { seen += " · \(countdown)" }
        if let cue = view.cue { seen += " · \(cue.rawValue)" }
        panel.fill(PixelRect(x: area.x, y: y, width: area.width, height: row), Color(rgb: 0x000000))
        panel.text(seen, in: PixelRect(x: area.x + theme.gap, y: y, width: area.width - theme.gap * 2, height: row),
                   size: theme.smallTextSize)
        y += row + theme.gap
        if session.settings.recording {
            for player in session.roster {
                let agreed = session.consent.hasAgreed(player)
                panel.button("game:consent:\(player)", agreed ? "\(player): agreed to recording" : "\(player): ask consent",
                             in: PixelRect(x: area.x, y: y, width: area.width, height: row - 2), isOn: agreed,
                             group: "game-consent")
                y += row
            }
        } else {
            panel.text("Not recording: no consent needed.", in: PixelRect(x: area.x, y: y, width: area.width, height: row),
                       size: theme.smallTextSize, color: theme.secondaryText)
            y += row
        }
        y += theme.gap
        for setting in GameScreen.Setting.allCases {
            panel.stepper(setting.id, in: PixelRect(x: area.x, y: y, width: area.width, height: row - 2),
                          label: setting.label, value: setting.value(session.settings), group: "game-setup")
            y += row
        }
        y += panel.text(help(session.settings), x: area.x, y: y, size: theme.smallTextSize, color: theme.secondaryText,
                        maxWidth: area.width) + theme.gap
        for score in session.scoreboard.players {
            panel.text("\(score.player)  \(score.points) pts  (\(score.scored) played, \(score.voided) void)",
                       in: PixelRect(x: area.x, y: y, width: area.width, height: row))
            y += row
            if y > area.maxY - row { break }
        }
    }

    /// What the values mean, in one line each.
    private static func help(_ settings: GameSettings) -> String {
        let mode = settings.mode == .visual
            ? "Visual S/Z: the instruction is spoken alone; \(CueLetter.s.help) \(CueLetter.z.help)"
            : "Spoken: act only when Simon says it."
        return mode + " The response window starts when the speech ends (or the letter shows)."
    }
}
