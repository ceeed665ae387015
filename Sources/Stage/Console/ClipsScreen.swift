import Foundation
import Render

/// The Clips screen: Current game / All saved above the actions, the clips newest
/// first (kind, player, card, verdict, duration, date), and the replay at the right
/// with its transport; or the replay alone over the whole inner display.
package enum ClipsScreen {
    package static let actions: [(id: WidgetID, title: String)] = [
        ("clips:replay", "Replay"), ("clips:export", "Export"), ("clips:eject", "Eject"), ("clips:delete", "Delete"),
    ]

    package static func build(_ model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        let clips = model.clips
        if let replay = clips.replay, replay.fullScreen {
            fullScreen(replay, model: model, panel: panel)
            return
        }
        if let problem = clips.input.problem {
            panel.text(problem, x: area.x, y: area.y, color: theme.secondaryText, maxWidth: area.width)
            return
        }
        let list = model.state.clipList
        var y = area.y
        let chooserWidth = area.width / 4
        let choices: [(ClipList, WidgetID, String)] = [
            (.currentGame, "clips:list:game", "Current game (\(clips.input.currentGameClips.count))"),
            (.allSaved, "clips:list:all", "All saved (\(clips.input.clips.count))"),
        ]
        for (index, choice) in choices.enumerated() {
            panel.button(choice.1, choice.2,
                         in: PixelRect(x: area.x + index * (chooserWidth + theme.gap), y: y, width: chooserWidth,
                                       height: theme.rowHeight),
                         isOn: list == choice.0)
        }
        let actionsX = area.x + 2 * (chooserWidth + theme.gap) + theme.gap * 2
        // A selected clip whose derived export failed offers it again.
        let failed = selected(model)?.exportFailure != nil
        let actions = Self.actions + (failed ? [("clips:retry", "Retry export")] : [])
        let actionWidth = (area.maxX - actionsX - theme.gap * (actions.count - 1)) / actions.count
        for (index, action) in actions.enumerated() {
            panel.button(action.id, action.title,
                         in: PixelRect(x: actionsX + index * (actionWidth + theme.gap), y: y, width: actionWidth,
                                       height: theme.rowHeight),
                         style: action.id == "clips:replay" ? .primary : action.id == "clips:delete" ? .danger : .normal)
        }
        y += theme.rowHeight + theme.gap * 2
        let footer = footerLines(model)
        let footerHeight = footer.isEmpty ? 0 : Int(theme.smallTextSize * 1.3) * footer.count + theme.gap
        let body = PixelRect(x: area.x, y: y, width: area.width, height: area.maxY - y - footerHeight)
        if let replay = clips.replay {
            let listWidth = body.width / 2
            clipList(model, panel: panel, area: PixelRect(x: body.x, y: body.y, width: listWidth, height: body.height),
                     compact: true)
            ReplayPanel.build(replay, model: model, panel: panel,
                              area: PixelRect(x: body.x + listWidth + theme.gap * 2, y: body.y,
                                              width: body.width - listWidth - theme.gap * 2, height: body.height))
        } else {
            clipList(model, panel: panel, area: body)
        }
        var footerY = area.maxY - footerHeight + theme.gap
        for line in footer {
            footerY += panel.text(line, x: area.x, y: footerY, size: theme.smallTextSize, color: theme.secondaryText,
                                  maxWidth: area.width, singleLine: true)
        }
    }

    /// Rows a page at a time, the page holding the selection (as the library does).
    /// `compact` (beside the replay) leaves out the date, which the wide list shows.
    private static func clipList(_ model: ConsoleModel, panel: WidgetPanel, area: PixelRect, compact: Bool = false) {
        let theme = panel.theme
        let rows = model.clips.rows(model.state.clipList)
        let w = area.width
        let x = compact
            ? (kind: theme.gap * 2, player: w * 20 / 100, card: w * 38 / 100, verdict: w * 70 / 100,
               duration: w * 86 / 100, date: w)
            : (kind: theme.gap * 2, player: w * 14 / 100, card: w * 33 / 100, verdict: w * 57 / 100,
               duration: w * 70 / 100, date: w * 80 / 100)
        let lengthRight = compact ? w - theme.gap * 2 : x.date - theme.gap
        let headerHeight = Int(theme.smallTextSize * 1.6)
        panel.columns([.init("Kind", x: x.kind, width: x.player - x.kind - theme.gap, secondary: true),
                       .init("Player", x: x.player, width: x.card - x.player - theme.gap, secondary: true),
                       .init("Card / script", x: x.card, width: x.verdict - x.card - theme.gap, secondary: true),
                       .init("Verdict", x: x.verdict, width: x.duration - x.verdict - theme.gap, secondary: true),
                       .init("Length", x: x.duration, width: lengthRight - x.duration, alignment: .trailing,
                             secondary: true)]
                          + (compact ? [] : [.init("Recorded", x: x.date + theme.gap, width: w - x.date - theme.gap * 3,
                                                   secondary: true)]),
                      in: PixelRect(x: area.x, y: area.y, width: w, height: headerHeight))
        let top = area.y + headerHeight
        guard !rows.isEmpty else {
            let message = model.state.clipList == .currentGame
                ? "No attempt of the current game has been recorded."
                : "No clips yet. Record a take on the Prompter screen (Record), or play a recorded game."
            panel.text(message, x: area.x + theme.gap * 2, y: top + theme.gap, color: theme.secondaryText,
                       maxWidth: w - theme.gap * 4)
            return
        }
        let capacity = max(1, (area.maxY - top) / theme.rowHeight)
        let selected = rows.firstIndex { $0.id == model.state.selectedClip } ?? 0
        let first = selected / capacity * capacity
        for (index, clip) in rows[first..<min(rows.count, first + capacity)].enumerated() {
            let rect = PixelRect(x: area.x, y: top + index * theme.rowHeight, width: w, height: theme.rowHeight)
            let playing = model.clips.replay?.id == clip.id ? "  ▶" : ""
            panel.row("clip:" + clip.id, in: rect, selected: clip.id == model.state.selectedClip, group: "clips",
                      columns: [.init(kindName(clip) + playing, x: x.kind, width: x.player - x.kind - theme.gap),
                                .init(clip.player ?? "—", x: x.player, width: x.card - x.player - theme.gap),
                                .init(clip.card ?? clip.title ?? "—", x: x.card, width: x.verdict - x.card - theme.gap),
                                .init(verdictName(clip), x: x.verdict, width: x.duration - x.verdict - theme.gap),
                                .init(clip.duration.map(duration) ?? "—", x: x.duration,
                                      width: lengthRight - x.duration, alignment: .trailing)]
                          + (compact ? [] : [.init(TimeText.day(clip.recordedAt), x: x.date + theme.gap,
                                                   width: w - x.date - theme.gap * 3, secondary: true)]))
        }
        if rows.count > capacity {
            panel.text("\(first + 1)–\(min(rows.count, first + capacity)) of \(rows.count)",
                       in: PixelRect(x: area.x, y: area.maxY - headerHeight, width: w - theme.gap * 2,
                                     height: headerHeight),
                       alignment: .trailing, size: theme.smallTextSize, color: theme.secondaryText)
        }
    }

    /// The replay over the whole inner display: the picture, its transport at the foot.
    private static func fullScreen(_ replay: ClipReplay.Shown, model: ConsoleModel, panel: WidgetPanel) {
        let theme = panel.theme
        panel.beginModal()
        panel.fill(panel.bounds, Color(rgb: 0x000000))
        let barHeight = theme.rowHeight + theme.gap * 2
        let picture = PixelRect(x: 0, y: 0, width: panel.size.width, height: panel.size.height - barHeight)
        panel.add(model.clips.picture(picture))
        ReplayPanel.transport(replay, panel: panel,
                              area: PixelRect(x: theme.gap * 2, y: picture.maxY + theme.gap,
                                              width: panel.size.width - theme.gap * 4, height: theme.rowHeight))
    }

    /// The clip selected in the list shown.
    private static func selected(_ model: ConsoleModel) -> ClipSummary? {
        model.clips.rows(model.state.clipList).first { $0.id == model.state.selectedClip }
    }

    private static func footerLines(_ model: ConsoleModel) -> [String] {
        var lines: [String] = []
        if let export = model.clips.input.export {
            switch export.state {
            case .copying:
                let percent = export.fraction.map { " \(Int(($0 * 100).rounded())) %" } ?? ""
                lines.append("Exporting \(export.id) to \(export.destination)…\(percent)")
            case .done: lines.append("Exported \(export.id) to \(export.destination)" + (export.message.map { ": " + $0 } ?? ""))
            case .failed: lines.append("Export of \(export.id) failed: \(export.message ?? "unknown error")")
            }
        }
        if let clip = selected(model), let failure = clip.exportFailure {
            lines.append("The derived export of \(clip.displayName) failed: \(failure). Retry export makes it again.")
        }
        if let eject = model.clips.input.eject { lines.append(eject.line) }
        if let notice = model.state.notice { lines.append(notice) }
        return lines
    }

    static func kindName(_ clip: ClipSummary) -> String {
        switch clip.kind {
        case "prompter": "Take"
        case "game": "Attempt"
        default: clip.kind.capitalized
        }
    }

    static func verdictName(_ clip: ClipSummary) -> String {
        guard let verdict = clip.verdict, !verdict.isEmpty else { return clip.kind == "game" ? "Not judged" : "—" }
        return verdict.capitalized
    }

    /// "0:12", "12:05".
    static func duration(_ seconds: Double) -> String {
        let whole = max(0, Int(seconds.rounded(.down)))
        return "\(whole / 60):" + String(format: "%02d", whole % 60)
    }
}
