import Foundation
import Prompter
import Render

/// The library: folders at the left, the search and the actions above the list of
/// scripts, newest first, with their date, word count and reading time.
package enum LibraryScreen {
    package static let actions: [(id: WidgetID, title: String)] = [
        ("library:open", "Open"), ("library:new", "New"), ("library:edit", "Edit"),
        ("library:rename", "Rename"), ("library:duplicate", "Duplicate"), ("library:move", "Move"),
        ("library:delete", "Delete"),
    ]

    package static func folderID(_ selection: LibrarySelection) -> WidgetID {
        switch selection {
        case .allScripts: "folder:*all"
        case .topLevel: "folder:*top"
        case let .folder(name): "folder:" + name
        }
    }

    package static func selection(forFolderID id: WidgetID) -> LibrarySelection? {
        guard id.hasPrefix("folder:") else { return nil }
        let name = String(id.dropFirst("folder:".count))
        return name == "*all" ? .allScripts : name == "*top" ? .topLevel : .folder(name)
    }

    package static func build(_ model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        guard model.listing.root != nil else {
            panel.text("The scripts folder is unavailable; see the problem below.", x: area.x, y: area.y,
                       color: theme.secondaryText, maxWidth: area.width)
            return
        }
        let sidebar = PixelRect(x: area.x, y: area.y, width: area.width / 5, height: area.height)
        folders(model, panel: panel, area: sidebar)
        let main = PixelRect(x: sidebar.maxX + theme.gap * 2, y: area.y, width: area.maxX - sidebar.maxX - theme.gap * 2,
                             height: area.height)
        panel.textField("search", in: PixelRect(x: main.x, y: main.y, width: main.width, height: theme.rowHeight),
                        text: model.state.search, placeholder: "Search titles and text (type to search)")
        var y = main.y + theme.rowHeight + theme.gap
        let buttonWidth = (main.width - theme.gap * (actions.count - 1)) / actions.count
        for (index, action) in actions.enumerated() {
            panel.button(action.id, action.title,
                         in: PixelRect(x: main.x + index * (buttonWidth + theme.gap), y: y, width: buttonWidth,
                                       height: theme.rowHeight),
                         style: action.id == "library:open" ? .primary : action.id == "library:delete" ? .danger : .normal)
        }
        y += theme.rowHeight + theme.gap * 2
        let footer = footerLines(model)
        let footerHeight = footer.isEmpty ? 0 : Int(theme.smallTextSize * 1.3) * footer.count + theme.gap
        scriptList(model, panel: panel,
                   area: PixelRect(x: main.x, y: y, width: main.width, height: main.maxY - y - footerHeight))
        var footerY = main.maxY - footerHeight + theme.gap
        for line in footer {
            footerY += panel.text(line, x: main.x, y: footerY, size: theme.smallTextSize, color: theme.secondaryText,
                                  maxWidth: main.width, singleLine: true)
        }
    }

    private static func folders(_ model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        panel.fill(area, theme.panel)
        let choices: [LibrarySelection] = [.allScripts, .topLevel] + model.listing.folders.map { .folder($0) }
        var y = area.y + theme.gap
        // Room for the three folder buttons at the bottom, whether or not all show.
        let step = theme.rowHeight + theme.gap
        let bottom = area.maxY - 3 * step
        for choice in choices where y + theme.rowHeight <= bottom {
            panel.row(folderID(choice), in: PixelRect(x: area.x, y: y, width: area.width, height: theme.rowHeight),
                      selected: choice == model.state.folder, group: "folders",
                      columns: [.init(choice.displayName, x: theme.gap * 2, width: area.width - theme.gap * 4)])
            y += theme.rowHeight
        }
        func button(_ id: WidgetID, _ title: String, row: Int, style: WidgetPanel.ButtonStyle = .normal) {
            panel.button(id, title, in: PixelRect(x: area.x + theme.gap, y: bottom + row * step,
                                                  width: area.width - theme.gap * 2, height: theme.rowHeight),
                         style: style)
        }
        // Only a real folder can be renamed or deleted, not All Scripts or No Folder.
        if case .folder = model.state.folder {
            button("library:rename-folder", "Rename folder", row: 0)
            button("library:delete-folder", "Delete folder", row: 1, style: .danger)
        }
        button("library:new-folder", "New folder", row: 2)
    }

    /// Rows a page at a time, the page holding the selection, so the list never jumps
    /// by less than a page and the selection is always in view.
    private static func scriptList(_ model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        let entries = model.listing.scripts
        let w = area.width
        let columns = (title: 0, date: w * 46 / 100, words: w * 70 / 100, time: w * 84 / 100)
        let headerHeight = Int(theme.smallTextSize * 1.6)
        panel.columns([.init("Title", x: theme.gap * 2, width: columns.date - theme.gap * 4, secondary: true),
                            .init("Modified", x: columns.date, width: columns.words - columns.date, secondary: true),
                            .init("Words", x: columns.words, width: columns.time - columns.words - theme.gap * 2,
                                  alignment: .trailing, secondary: true),
                            .init("Reading time", x: columns.time, width: w - columns.time - theme.gap * 2,
                                  alignment: .trailing, secondary: true)],
                      in: PixelRect(x: area.x, y: area.y, width: w, height: headerHeight))
        let listTop = area.y + headerHeight
        guard !entries.isEmpty else {
            let message = model.state.search.isEmpty
                ? "No scripts here yet. Press New, or copy .txt or .md files into \(model.listing.root ?? "the scripts folder")."
                : "No script matches “\(model.state.search)”."
            panel.text(message, x: area.x + theme.gap * 2, y: listTop + theme.gap, color: theme.secondaryText,
                       maxWidth: w - theme.gap * 4)
            return
        }
        let capacity = max(1, (area.maxY - listTop) / theme.rowHeight)
        let selectedIndex = entries.firstIndex { $0.id == model.state.selectedScript } ?? 0
        let first = selectedIndex / capacity * capacity
        for (index, entry) in entries[first..<min(entries.count, first + capacity)].enumerated() {
            let rect = PixelRect(x: area.x, y: listTop + index * theme.rowHeight, width: w, height: theme.rowHeight)
            let minutes = ReadingTime.label(words: entry.wordCount, wordsPerMinute: model.prompter.libraryWordsPerMinute)
            let title = (model.state.folder == .allScripts ? entry.folder.map { "\($0) / " } ?? "" : "") + entry.title
                + (entry.importedFrom.map { " (.\($0.rawValue), read-only)" } ?? "")
            panel.row("script:" + entry.id, in: rect, selected: entry.id == model.state.selectedScript,
                      group: "scripts",
                      columns: [.init(title + (entry.id == model.prompter.scriptID ? "  ●" : ""),
                                      x: theme.gap * 2, width: columns.date - theme.gap * 4),
                                .init(TimeText.day(entry.modified), x: columns.date,
                                      width: columns.words - columns.date, secondary: true),
                                .init("\(entry.wordCount)", x: columns.words,
                                      width: columns.time - columns.words - theme.gap * 2, alignment: .trailing),
                                .init(minutes, x: columns.time, width: w - columns.time - theme.gap * 2,
                                      alignment: .trailing)])
        }
        if entries.count > capacity {
            panel.text("\(first + 1)–\(min(entries.count, first + capacity)) of \(entries.count)",
                       in: PixelRect(x: area.x, y: area.maxY - headerHeight, width: w - theme.gap * 2,
                                     height: headerHeight),
                       alignment: .trailing, size: theme.smallTextSize, color: theme.secondaryText)
        }
    }

    /// The last action's outcome, then files that are in the folder but not listed.
    private static func footerLines(_ model: ConsoleModel) -> [String] {
        var lines: [String] = []
        if let notice = model.state.notice { lines.append(notice) }
        let skipped = model.listing.skipped
        if let first = skipped.first {
            let more = skipped.count > 1 ? " (and \(skipped.count - 1) more)" : ""
            lines.append("Not listed: \(first.id): \(first.skipReason ?? "unreadable")\(more)")
        }
        return lines
    }
}
