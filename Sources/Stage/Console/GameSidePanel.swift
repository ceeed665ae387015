import Foundation
import Game
import Render

/// The dashboard's right column: a small copy of what the participant sees, drawn by
/// the outer display's own scene (the preview never acknowledges a cue: only outer
/// frames report one), what it says in words, the consent of the player up, and the
/// points so far (the Scoreboard has the rest).
enum GameSidePanel {
    static func build(_ session: GameSession, model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        let row = theme.rowHeight * 3 / 4
        var y = area.y
        let preview = model.participantPreview(PixelRect(x: area.x, y: y, width: area.width, height: area.height / 2))
        let box = preview.rect
        panel.fill(PixelRect(x: box.x - 1, y: box.y - 1, width: box.width + 2, height: box.height + 2), theme.secondaryText)
        panel.add(preview.layers)
        y += box.height + theme.gap
        // Taken at the frame's time with the session (`GameController.consoleView(at:)`),
        // so never nil here; the fallback only keeps the panel drawable.
        let view = model.game.participant ?? session.participantPresentation(at: 0)
        var seen = "Participant sees: \(view.status)"
        if let countdown = view.countdown { seen += " · \(countdown)" }
        if let cue = view.cue { seen += " · \(cue.rawValue)" }
        y += panel.text(seen, x: area.x, y: y, size: theme.smallTextSize, color: theme.secondaryText, maxWidth: area.width)
            + theme.gap
        let player = session.currentPlayer
        let consent: String = if !session.settings.recording {
            "Not recording: no consent needed."
        } else if session.consent.hasAgreed(player) {
            "\(player) agreed to be recorded."
        } else if session.consent.playsWithoutRecording(player) {
            "\(player) plays without recording."
        } else {
            "\(player) has not been asked about recording: see Consent."
        }
        y += panel.text(consent, x: area.x, y: y, size: theme.smallTextSize, color: theme.secondaryText,
                        maxWidth: area.width) + theme.gap
        for score in session.scoreboard.players {
            guard y <= area.maxY - row else { break }
            panel.text("\(score.player)  \(score.points) pts  (\(score.scored) played, \(score.voided) void)",
                       in: PixelRect(x: area.x, y: y, width: area.width, height: row), size: theme.smallTextSize)
            y += row
        }
    }
}
