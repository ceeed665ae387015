import Foundation
import Game
import Render

/// The host's Game screen: the dashboard (player and turn, the grouped action picker
/// with the card's framing guidance, the rule, Send with every unmet condition next to
/// it, the live phase, Stop, the review), consent per player, the setup values and the
/// scoreboard. Every control is a widget target, so Tab/arrows/Enter and clicks reach it.
package enum GameScreen {
    package static func build(_ model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        let game = model.game
        // The pages along the top: the dashboard, setup and consent.
        let pageWidth = area.width / 6
        for (index, page) in GamePage.allCases.enumerated() {
            panel.button("game:page:\(page.rawValue)", page.title,
                         in: PixelRect(x: area.x + index * (pageWidth + theme.gap), y: area.y, width: pageWidth,
                                       height: theme.rowHeight * 3 / 4),
                         isOn: page == model.state.gamePage, group: "game-pages")
        }
        let body = PixelRect(x: area.x, y: area.y + theme.rowHeight * 3 / 4 + theme.gap, width: area.width,
                             height: area.height - theme.rowHeight * 3 / 4 - theme.gap)
        switch model.state.gamePage {
        case .setup:
            GameSetupScreen.build(model, panel: panel, area: body)
            return
        case .consent:
            GameConsentScreen.build(model, panel: panel, area: body)
            return
        case .dashboard:
            break
        }
        guard let session = game.session else {
            var y = body.y
            y += panel.text(game.catalogProblem ?? "No game yet. Start one with two players, or set up the players first.",
                            x: body.x, y: y, color: theme.secondaryText, maxWidth: body.width) + theme.gap
            panel.button("game:new", "New game", in: PixelRect(x: body.x, y: y, width: body.width / 4,
                                                               height: theme.rowHeight), style: .primary, group: "game")
            return
        }
        let left = PixelRect(x: body.x, y: body.y, width: body.width * 3 / 5 - theme.gap, height: body.height)
        let right = PixelRect(x: left.maxX + theme.gap * 2, y: body.y, width: body.maxX - left.maxX - theme.gap * 2,
                              height: body.height)
        dashboard(session, model: model, panel: panel, area: left)
        GameSidePanel.build(session, model: model, panel: panel, area: right)
    }

    private static func dashboard(_ session: GameSession, model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        let row = theme.rowHeight
        var y = area.y
        let challenge = min(session.challengesPlayedThisTurn + 1, session.settings.challengesPerTurn)
        panel.text("\(session.currentPlayer) · turn \(session.turn + 1) · challenge \(challenge) of \(session.settings.challengesPerTurn) · \(phaseName(session))",
                   in: PixelRect(x: area.x, y: y, width: area.width, height: row))
        y += row + theme.gap
        // The picker: one group at a time, the cards in play of that group.
        let groups = ActionGroup.allCases.filter { session.settings.groups.contains($0) }
        let shown = groups.first { $0.rawValue == model.state.gameGroup } ?? groups.first
        let groupWidth = area.width / max(1, groups.count)
        for (index, group) in groups.enumerated() {
            panel.button("game:group:\(group.rawValue)", group.title,
                         in: PixelRect(x: area.x + index * groupWidth, y: y, width: groupWidth - theme.gap, height: row),
                         isOn: group == shown, group: "game-groups")
        }
        y += row + theme.gap
        let cards = model.game.cardsInPlay.filter { $0.group == shown }
        let selected = session.selection?.cardID
        let cardRows = max(1, min(cards.count, (area.maxY - y - row * 6) / (row * 3 / 4)))
        let first = max(0, min((cards.firstIndex { $0.id == selected } ?? 0) - cardRows / 2, cards.count - cardRows))
        for card in cards.dropFirst(first).prefix(cardRows) {
            panel.row("game:card:\(card.id)", in: PixelRect(x: area.x, y: y, width: area.width, height: row * 3 / 4 - 2),
                      selected: card.id == selected, group: "game-cards",
                      columns: [.init(card.instruction(card.parameters), x: theme.gap, width: area.width * 2 / 3),
                                .init(card.seated ? "seated" : "standing", x: area.width * 2 / 3, width: area.width / 3 - theme.gap,
                                      alignment: .trailing, secondary: true)])
            y += row * 3 / 4
        }
        if let selected, let card = model.game.catalog?.card(id: selected) {
            panel.text("Keep in view: \(card.framing) (\(card.frame.rawValue))", in: PixelRect(x: area.x, y: y, width: area.width, height: row * 3 / 4),
                       size: theme.smallTextSize, color: theme.secondaryText)
        }
        y += row * 3 / 4
        if let selection = session.selection, let card = model.game.catalog?.card(id: selection.cardID),
           !card.parameters.isEmpty {
            parameters(card, selection: selection, panel: panel, area: PixelRect(x: area.x, y: y, width: area.width, height: row * 3 / 4))
        }
        y += row * 3 / 4 + theme.gap
        controls(session, model: model, panel: panel, area: PixelRect(x: area.x, y: y, width: area.width, height: area.maxY - y))
    }

    /// The selected card's parameters: a finger count stepped like a setup value, the
    /// hand as three choices. The spoken words follow them from the next Send.
    private static func parameters(_ card: ActionCard, selection: ChallengeSelection, panel: WidgetPanel,
                                   area: PixelRect) {
        let theme = panel.theme
        let values = (try? card.resolve(selection.parameters)) ?? card.parameters
        var x = area.x
        if let fingers = values.fingers {
            let width = area.width * 2 / 5
            panel.stepper("game:param:fingers", in: PixelRect(x: x, y: area.y, width: width, height: area.height - 2),
                          label: "Fingers", value: "\(fingers)", group: "game-params")
            x += width + theme.gap
        }
        if let hand = values.hand {
            let width = (area.maxX - x) / Hand.allCases.count - theme.gap
            for choice in Hand.allCases {
                panel.button("game:param:hand:\(choice.rawValue)", choice.rawValue.capitalized,
                             in: PixelRect(x: x, y: area.y, width: width, height: area.height - 2), isOn: choice == hand,
                             group: "game-params")
                x += width + theme.gap
            }
        }
    }

    private static func controls(_ session: GameSession, model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        let row = theme.rowHeight
        var y = area.y
        let width = area.width / 4 - theme.gap
        let rule = session.selection?.rule
        for (index, choice) in [("simon", "Simon says", RuleChoice.host(.simonSays)), ("not", "Not said", .host(.notSaid)),
                                ("draw", "Draw", .draw)].enumerated() {
            panel.button("game:rule:\(choice.0)", choice.1,
                         in: PixelRect(x: area.x + index * (width + theme.gap), y: y, width: width, height: row),
                         isOn: rule == choice.2, group: "game-rule")
        }
        y += row + theme.gap
        let allowed = session.allowedActions
        var buttons: [(WidgetID, String, WidgetPanel.ButtonStyle)] = []
        if session.phase.isCapturing { buttons.append(("game:stop", "Stop (void)", .danger)) }
        if session.phase == .ready { buttons.append(("game:send", model.game.readiness.isEmpty ? "Send" : "Send (not ready)", .primary)) }
        if session.phase == .review {
            buttons += [("game:verdict:pass", "Pass", .primary), ("game:verdict:fail", "Fail", .normal),
                        ("game:verdict:void", "Void", .normal)]
        }
        if allowed.contains(.retry) { buttons.append(("game:retry", "Retry", .primary)) }
        if allowed.contains(.next) { buttons.append(("game:next", "Next", .primary)) }
        if let last = session.attempts.last(where: { $0.interruption == nil && $0.verdict != nil && $0.verdict != .void }),
           session.phase == .complete || session.phase == .ready {
            let other = last.verdict == .pass ? "fail" : "pass"
            buttons.append(("game:correct:\(last.id):\(other)", "Make #\(last.id) \(other)", .normal))
        }
        // The end of the session: End game asks whether this game's media go too; once
        // ended, what media are left can still be deleted.
        if allowed.contains(.endGame) { buttons.append(("game:end", "End game", .normal)) }
        if session.ended && !session.savedMedia.isEmpty {
            buttons.append(("game:delete-media", "Delete game media", .danger))
        }
        for (index, button) in buttons.enumerated() {
            panel.button(button.0, button.1, in: PixelRect(x: area.x + index * (width + theme.gap), y: y, width: width, height: row),
                         style: button.2, group: "game-actions")
        }
        y += row + theme.gap
        var lines = session.phase == .ready ? model.game.readiness + model.game.warnings : []
        if let notice = model.game.notice { lines.insert(notice, at: 0) }
        if let interruption = session.attempts.last?.interruption, session.phase == .interrupted {
            lines.insert(interruption.description, at: 0)
        }
        if !lines.isEmpty {
            panel.text(lines.joined(separator: "\n"), x: area.x, y: y, size: theme.smallTextSize, color: theme.secondaryText,
                       maxWidth: area.width)
        }
    }

    static func phaseName(_ session: GameSession) -> String {
        switch session.phase {
        case .ready: "choose the next challenge"
        case .preparing: "preparing the instruction"
        case .leadIn: "recording lead-in"
        case .speech: "speaking"
        case .cue: "showing the cue"
        case .response: "response window"
        case .tail: "finishing the recording"
        case .review: "judge the attempt"
        case .complete: "judged; Next when ready"
        case .interrupted: "interrupted: retry offered"
        }
    }
}
