import Foundation
import Game
import Render

/// The Scoreboard destination: points per player and per turn, and every attempt with
/// its verdict. A judged attempt's verdict can be corrected here (pass ↔ fail); the
/// scores follow the latest verdict.
enum ScoreboardScreen {
    static func build(_ model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        let row = theme.rowHeight * 3 / 4
        guard let session = model.game.session else {
            panel.text("No game yet: start one on the Game tab.", x: area.x, y: area.y, color: theme.secondaryText,
                       maxWidth: area.width)
            return
        }
        let board = session.scoreboard
        let left = PixelRect(x: area.x, y: area.y, width: area.width * 2 / 5 - theme.gap, height: area.height)
        let right = PixelRect(x: left.maxX + theme.gap * 2, y: area.y, width: area.maxX - left.maxX - theme.gap * 2,
                              height: area.height)
        var y = left.y
        heading("Players", panel: panel, x: left.x, y: &y, width: left.width)
        let leader = board.players.map(\.points).max() ?? 0
        for score in board.players {
            panel.row("score:player:\(score.player)", in: PixelRect(x: left.x, y: y, width: left.width, height: row - 2),
                      selected: score.points == leader && leader > 0, group: nil,
                      columns: [.init(score.player, x: theme.gap, width: left.width / 2),
                                .init("\(score.points) pts · \(score.scored) played · \(score.voided) void",
                                      x: left.width / 2, width: left.width / 2 - theme.gap, alignment: .trailing,
                                      secondary: true)])
            y += row
        }
        y += theme.gap
        heading("Turns", panel: panel, x: left.x, y: &y, width: left.width)
        for turn in board.turns {
            guard y <= left.maxY - row else { break }
            panel.text("Turn \(turn.turn + 1) · \(turn.player) · \(turn.points) of \(turn.scored)",
                       in: PixelRect(x: left.x + theme.gap, y: y, width: left.width - theme.gap, height: row),
                       size: theme.smallTextSize)
            y += row
        }
        attempts(session, model: model, panel: panel, area: right)
    }

    private static func heading(_ title: String, panel: WidgetPanel, x: Int, y: inout Int, width: Int) {
        let row = panel.theme.rowHeight * 3 / 4
        panel.text(title, in: PixelRect(x: x, y: y, width: width, height: row), size: panel.theme.smallTextSize,
                   color: panel.theme.secondaryText)
        y += row
    }

    /// Newest first, so the attempts a host most likely corrects are on screen.
    private static func attempts(_ session: GameSession, model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        let row = theme.rowHeight * 3 / 4
        var y = area.y
        heading("Attempts (newest first)", panel: panel, x: area.x, y: &y, width: area.width)
        if let notice = model.game.notice {
            y += panel.text(notice, x: area.x, y: y, size: theme.smallTextSize, color: GameSetupScreen.refusedText,
                            maxWidth: area.width) + theme.gap
        }
        let buttonWidth = area.width / 4
        for attempt in session.attempts.reversed() {
            guard y <= area.maxY - row else { break }
            let verdict = attempt.interruption != nil ? "void (interrupted)" : attempt.verdict?.rawValue ?? "awaiting review"
            let corrected = attempt.verdicts.count > 1 ? " · corrected" : ""
            panel.text("#\(attempt.id) \(attempt.snapshot.player): \(attempt.snapshot.instruction) — \(verdict)\(corrected)",
                       in: PixelRect(x: area.x, y: y, width: area.width - buttonWidth - theme.gap, height: row - 2),
                       size: theme.smallTextSize)
            if attempt.interruption == nil, let current = attempt.verdict, current != .void {
                let other: Verdict = current == .pass ? .fail : .pass
                panel.button("game:correct:\(attempt.id):\(other.rawValue)", "Make \(other.rawValue)",
                             in: PixelRect(x: area.maxX - buttonWidth, y: y, width: buttonWidth, height: row - 2),
                             group: "score-corrections")
            }
            y += row
        }
    }
}
