import Foundation
import Game
import Render

/// The Game screen's Consent page: before any camera use each player answers, and the
/// host records it. Agreeing lets their attempts be recorded; the other answer lets
/// them play with the camera off for them. Nothing is saved across a restart, so the
/// question comes again after one.
enum GameConsentScreen {
    static func build(_ model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        let row = theme.rowHeight * 3 / 4
        var y = area.y
        guard let session = model.game.session else {
            panel.text("Start a game first (Setup or New game on the dashboard).", x: area.x, y: y,
                       color: theme.secondaryText, maxWidth: area.width)
            return
        }
        let intro = session.settings.recording
            ? "Ask each player before the camera records them: their attempts are filmed for the review and kept as clips. A player may play without being recorded."
            : "Recording is off for this game (Setup): nothing is filmed, and no one needs to be asked."
        y += panel.text(intro, x: area.x, y: y, size: theme.smallTextSize, color: theme.secondaryText,
                        maxWidth: area.width) + theme.gap
        let nameWidth = area.width / 4
        let choice = (area.width - nameWidth) / 3 - theme.gap
        for player in session.roster {
            guard y <= area.maxY - row else { break }
            let agreed = session.consent.hasAgreed(player)
            let without = session.consent.playsWithoutRecording(player)
            let status = agreed ? "agreed" : without ? "not recorded" : "not asked"
            panel.text("\(player) · \(status)", in: PixelRect(x: area.x, y: y, width: nameWidth - theme.gap, height: row - 2))
            var x = area.x + nameWidth
            let choices: [(String, String, Bool)] = [
                ("yes", "Agrees to recording", agreed), ("norecord", "Play without recording", without),
                ("no", "Not asked (withdraw)", !agreed && !without),
            ]
            for (id, title, isOn) in choices {
                panel.button("game:consent:\(id):\(player)", title, in: PixelRect(x: x, y: y, width: choice, height: row - 2),
                             isOn: isOn, group: "game-consent")
                x += choice + theme.gap
            }
            y += row
        }
        y += theme.gap
        panel.button("game:consent-done", "Done: to the dashboard",
                     in: PixelRect(x: area.x, y: y, width: area.width / 3, height: theme.rowHeight), style: .primary,
                     group: "game-consent")
    }
}
