import Prompter
import Render

/// A dialog over the console: the screen below is dimmed and stops taking input
/// until the dialog is answered or dismissed with Esc.
package enum DialogView {
    package static func build(_ dialog: ConsoleDialog, model: ConsoleModel, panel: WidgetPanel) {
        let theme = panel.theme
        panel.fill(panel.bounds, Color(rgb: 0x000000).withAlpha(150))
        panel.beginModal()
        let width = min(panel.size.width - theme.gap * 8, max(panel.size.width / 2, theme.rowHeight * 14))
        let choices = choiceCount(dialog, model: model)
        let height = theme.rowHeight * (3 + choices) + theme.gap * (6 + choices)
        let box = PixelRect(x: (panel.size.width - width) / 2, y: max(theme.gap, (panel.size.height - height) / 2),
                            width: width, height: height)
        panel.fill(box, theme.panel)
        let inner = PixelRect(x: box.x + theme.gap * 3, y: box.y + theme.gap * 2, width: box.width - theme.gap * 6,
                              height: box.height - theme.gap * 4)
        var y = inner.y
        y += panel.text(question(dialog, model: model), x: inner.x, y: y, maxWidth: inner.width) + theme.gap * 2
        switch dialog {
        case let .rename(_, text), let .newFolder(text), let .renameFolder(_, text):
            panel.textField("dialog:field", in: PixelRect(x: inner.x, y: y, width: inner.width, height: theme.rowHeight),
                            text: text, placeholder: "Name")
        case .move:
            let folders: [String?] = [nil] + model.listing.folders
            for folder in folders {
                panel.row("dialog:folder:" + (folder ?? ""),
                          in: PixelRect(x: inner.x, y: y, width: inner.width, height: theme.rowHeight), selected: false,
                          group: "dialog", columns: [.init(folder ?? "No folder (top level)", x: theme.gap * 2,
                                                           width: inner.width - theme.gap * 4)])
                y += theme.rowHeight + theme.gap
            }
        case .exportClip:
            for (index, destination) in model.clips.input.destinations.enumerated() {
                panel.row("dialog:destination:\(index)",
                          in: PixelRect(x: inner.x, y: y, width: inner.width, height: theme.rowHeight), selected: false,
                          group: "dialog", columns: [.init(destination.name, x: theme.gap * 2,
                                                           width: inner.width / 2 - theme.gap * 2),
                                                     .init(destination.path, x: inner.width / 2,
                                                           width: inner.width / 2 - theme.gap * 2, secondary: true)])
                y += theme.rowHeight + theme.gap
            }
        case .confirmDelete, .confirmDeleteFolder, .confirmDeleteClip, .deleteGameMedia:
            break
        case let .firstRun(card):
            for paragraph in card.paragraphs.dropFirst() {
                y += panel.text(paragraph, x: inner.x, y: y, maxWidth: inner.width) + theme.gap
            }
        case let .rigUpdate(card):
            for paragraph in card.paragraphs {
                y += panel.text(paragraph, x: inner.x, y: y, maxWidth: inner.width) + theme.gap
            }
        case let .endGame(media):
            endGameButtons(media: media, panel: panel, inner: inner, y: box.maxY - theme.gap * 2 - theme.rowHeight)
            return
        }
        let buttonWidth = (inner.width - theme.gap) / 2
        let buttonY = box.maxY - theme.gap * 2 - theme.rowHeight
        let confirm: (title: String, style: WidgetPanel.ButtonStyle)? = switch dialog {
        case .confirmDelete: ("Delete", .danger)
        case .confirmDeleteFolder: ("Delete folder", .danger)
        case .confirmDeleteClip: ("Delete clip", .danger)
        case .deleteGameMedia: ("Delete media", .danger)
        case .exportClip, .endGame, .firstRun: nil
        case let .rigUpdate(card): card.isOffer ? ("Update", .primary) : nil
        case .rename, .renameFolder: ("Rename", .primary)
        case .newFolder: ("Create", .primary)
        case .move: nil
        }
        if let confirm {
            panel.button("dialog:confirm", confirm.title,
                         in: PixelRect(x: inner.x, y: buttonY, width: buttonWidth, height: theme.rowHeight),
                         style: confirm.style)
        }
        panel.button("dialog:cancel", cancelTitle(dialog),
                     in: PixelRect(x: inner.maxX - buttonWidth, y: buttonY, width: buttonWidth, height: theme.rowHeight))
    }

    /// A card to read is answered with OK; an update can wait.
    private static func cancelTitle(_ dialog: ConsoleDialog) -> String {
        switch dialog {
        case .firstRun: "OK"
        case let .rigUpdate(card): card.isOffer ? "Not now" : "OK"
        default: "Cancel"
        }
    }

    /// End and delete the media, end and keep them, or cancel; without media just end or cancel.
    private static func endGameButtons(media: Int, panel: WidgetPanel, inner: PixelRect, y: Int) {
        let theme = panel.theme
        var buttons: [(WidgetID, String, WidgetPanel.ButtonStyle)] = []
        if media > 0 { buttons.append(("dialog:confirm", "End, delete media", .danger)) }
        buttons.append(("dialog:keep", media > 0 ? "End, keep media" : "End game", .primary))
        buttons.append(("dialog:cancel", "Cancel", .normal))
        let width = (inner.width - theme.gap * (buttons.count - 1)) / buttons.count
        for (index, button) in buttons.enumerated() {
            panel.button(button.0, button.1, in: PixelRect(x: inner.x + index * (width + theme.gap), y: y, width: width,
                                                           height: theme.rowHeight), style: button.2)
        }
    }

    private static func choiceCount(_ dialog: ConsoleDialog, model: ConsoleModel) -> Int {
        switch dialog {
        case .move: 1 + model.listing.folders.count
        case .rename, .newFolder, .renameFolder: 1
        case .confirmDelete: 0
        case .confirmDeleteClip: 1
        case .endGame, .deleteGameMedia: 1
        // A line for "none mounted" when there is no destination.
        case .exportClip: max(1, model.clips.input.destinations.count)
        // Its question takes two lines.
        case .confirmDeleteFolder: 1
        // Four paragraphs of one or two lines each.
        case .firstRun: 7
        // Two paragraphs of up to two lines, or one reason that may run long.
        case .rigUpdate: 4
        }
    }

    private static func question(_ dialog: ConsoleDialog, model: ConsoleModel) -> String {
        switch dialog {
        case let .confirmDelete(_, title): "Delete “\(title)” for good? This cannot be undone."
        case let .rename(id, _): "Rename “\(model.dialogScript ?? id)” to:"
        case let .move(id): "Move “\(model.dialogScript ?? id)” to:"
        case .newFolder: "New folder name:"
        case let .renameFolder(name, _): "Rename the folder “\(name)” to:"
        case let .confirmDeleteClip(_, title):
            "Delete the clip “\(title)”, its video and its details, for good? This cannot be undone."
        case let .endGame(media) where media > 0:
            "End the game? Its results and scores stay. Delete this game's media too: the video of "
                + "\(media == 1 ? "1 attempt" : "\(media) attempts") and their exports?"
        case .endGame:
            "End the game? Its results and scores stay; no attempt of it has media left."
        case let .deleteGameMedia(media):
            "Delete this game's media: the video of \(media == 1 ? "1 attempt" : "\(media) attempts") and "
                + "their exports? The results and scores stay. This cannot be undone."
        case let .exportClip(_, title):
            model.clips.input.destinations.isEmpty
                ? "Export “\(title)”: no USB stick is mounted and no export folder is set ([recording] export_folder)."
                : "Export “\(title)” to:"
        case let .firstRun(card): card.paragraphs[0]
        case let .rigUpdate(card): card.title
        case let .confirmDeleteFolder(name, count):
            "Delete the folder “\(name)”? " + (count == 0 ? "It holds no scripts." :
                "Its \(count == 1 ? "script moves" : "\(count) scripts move") to the top level (All Scripts); none is deleted.")
        }
    }
}
