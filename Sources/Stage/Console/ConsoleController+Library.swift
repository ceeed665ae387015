import Prompter
import Render

/// The library screen's keys and actions, and the dialogs they open.
extension ConsoleController {
    /// The title of the script an open rename or move dialog is about.
    package var dialogScript: String? {
        switch state.dialog {
        case let .rename(id, _), let .move(id): controller.library?.entry(id: id)?.title ?? id
        default: nil
        }
    }

    package func libraryKey(_ press: KeyPress) -> Bool {
        let focus = state.focus ?? ""
        switch press.symbol {
        case .up, .pageUp, .down, .pageDown:
            let backwards = press.symbol == .up || press.symbol == .pageUp
            if let next = targets.neighbour(of: focus, backwards: backwards) {
                self.focus(next.id)
            } else if backwards, focus.hasPrefix("script:") {
                self.focus("search")
            } else if !focus.hasPrefix("folder:") && !focus.hasPrefix("script:"), !backwards {
                self.focus(scriptRowID ?? targets.first(inGroup: "scripts")?.id)
            }
        case .left:
            self.focus(LibraryScreen.folderID(state.folder))
        case .right:
            self.focus(scriptRowID ?? targets.first(inGroup: "scripts")?.id)
        case .enter:
            if focus == "search" || focus.isEmpty {
                if let id = state.selectedScript { open(id) }
            } else {
                activate(focus)
            }
        case .escape:
            if !state.search.isEmpty {
                setSearch("")
            } else if controller.script != nil {
                show(.prompter)
            }
        case .backspace:
            if !state.search.isEmpty { setSearch(String(state.search.dropLast())) }
        case .delete:
            // On a folder's row the folder is meant; anywhere else the selected script.
            if focusedFolder != nil { askToDeleteFolder() } else { askToDelete() }
        case .f2:
            if focusedFolder != nil {
                askToRenameFolder()
            } else if let id = state.selectedScript {
                update { $0.dialog = .rename(id: id, text: title(of: id)); $0.focus = "dialog:field" }
            }
        case .space where state.search.isEmpty && focus != "search":
            if !focus.isEmpty { activate(focus) }
        default:
            // Everything that types goes into the search, wherever the focus is.
            guard let text = press.text, !press.modifiers.contains(.control) else { return press.action == nil }
            setSearch(state.search + text)
        }
        return true
    }

    package var scriptRowID: WidgetID? { state.selectedScript.map { "script:" + $0 } }

    package func setSearch(_ query: String) {
        update { $0.search = query }
        selectFirstIfNeeded()
    }

    /// Keeps a selection that is still listed, else selects the first script listed.
    package func selectFirstIfNeeded() {
        guard controller.library != nil else { return }
        let listed = listing.scripts
        guard !listed.contains(where: { $0.id == state.selectedScript }) else { return }
        let first = listed.first { $0.id == controller.script?.id } ?? listed.first
        update {
            let focusedRow = $0.focus?.hasPrefix("script:") == true
            $0.selectedScript = first?.id
            if focusedRow { $0.focus = first.map { "script:" + $0.id } }
        }
    }

    package func open(_ id: String) {
        do {
            try controller.open(id: id, at: now())
            update { $0.notice = nil }
            show(.prompter)
        } catch {
            update { $0.notice = "Cannot open \(id): \(error)" }
        }
    }

    package func title(of id: String) -> String { controller.library?.entry(id: id)?.title ?? id }

    package func askToDelete() {
        guard let id = state.selectedScript else { return }
        update {
            $0.dialog = .confirmDelete(id: id, title: title(of: id))
            $0.focus = "dialog:cancel"
        }
    }

    /// The library folder the focus or the sidebar's selection is on, if a real one.
    var focusedFolder: String? {
        guard let focus = state.focus, focus.hasPrefix("folder:") else { return nil }
        if case let .folder(name)? = LibraryScreen.selection(forFolderID: focus) { return name }
        return nil
    }

    /// The folder the sidebar has chosen (a real folder, not All Scripts or No Folder).
    var chosenFolder: String? {
        if case let .folder(name) = state.folder { return name }
        return nil
    }

    func askToRenameFolder() {
        guard let name = focusedFolder ?? chosenFolder else { return }
        update { $0.dialog = .renameFolder(name: name, text: name); $0.focus = "dialog:field" }
    }

    func askToDeleteFolder() {
        guard let name = focusedFolder ?? chosenFolder else { return }
        update {
            $0.dialog = .confirmDeleteFolder(name: name, scripts: controller.scriptCount(inFolder: name))
            $0.focus = "dialog:cancel"
        }
    }

    /// Runs a library edit; its outcome (or why it failed) shows under the list.
    /// Returns whether it worked.
    @discardableResult
    package func edit(_ done: String, _ body: (ScriptLibrary) throws(ScriptLibraryError) -> String?) -> Bool {
        guard let library = controller.library else { return false }
        do {
            let select = try body(library)
            libraryChanged()
            update {
                $0.notice = done
                $0.dialog = nil
                if let select { $0.selectedScript = select }
                $0.focus = $0.selectedScript.map { "script:" + $0 }
            }
            selectFirstIfNeeded()
            return true
        } catch {
            update {
                $0.notice = "\(error)"
                $0.dialog = nil
            }
            return false
        }
    }

    package func libraryAction(_ id: WidgetID) {
        let selected = state.selectedScript
        let folder: String? = if case let .folder(name) = state.folder { name } else { nil }
        switch id {
        case "library:open": if let selected { open(selected) }
        case "library:new":
            let created = edit("New script created") { library throws(ScriptLibraryError) in
                try library.createScript(in: folder).id
            }
            if created, let id = state.selectedScript { openEditor(id: id) }
        case "library:edit": if let selected { openEditor(id: selected) }
        case "library:rename":
            if let selected { update { $0.dialog = .rename(id: selected, text: title(of: selected)); $0.focus = "dialog:field" } }
        case "library:duplicate":
            if let selected {
                edit("Duplicated “\(title(of: selected))”") { library throws(ScriptLibraryError) in
                    try library.duplicate(id: selected).id
                }
            }
        case "library:move":
            if let selected { update { $0.dialog = .move(id: selected); $0.focus = "dialog:cancel" } }
        case "library:delete": askToDelete()
        case "library:new-folder": update { $0.dialog = .newFolder(text: ""); $0.focus = "dialog:field" }
        case "library:rename-folder": askToRenameFolder()
        case "library:delete-folder": askToDeleteFolder()
        default: break
        }
    }

    // MARK: dialogs

    package func dialogKey(_ press: KeyPress) -> Bool {
        guard let dialog = state.dialog else { return false }
        switch press.symbol {
        case .escape:
            closeDialog(dialog)
        case .tab, .up, .down, .left, .right:
            let backwards = press.symbol == .up || press.symbol == .left || press.modifiers.contains(.shift)
            if let next = targets.next(after: state.focus, backwards: backwards) { focus(next.id) }
        case .enter:
            activate(state.focus == "dialog:field" ? "dialog:confirm" : state.focus ?? "dialog:cancel")
        case .backspace:
            if let text = dialog.fieldText, !text.isEmpty { update { $0.dialog = dialog.withFieldText(String(text.dropLast())) } }
        default:
            if let text = press.text, let field = dialog.fieldText, !press.modifiers.contains(.control) {
                update { $0.dialog = dialog.withFieldText(field + text) }
            }
        }
        return true
    }

    /// Dismissed: the focus goes back to what the dialog was about.
    private func closeDialog(_ dialog: ConsoleDialog) {
        switch dialog {
        case .renameFolder, .confirmDeleteFolder:
            update { $0.dialog = nil; $0.focus = LibraryScreen.folderID($0.folder) }
        case .confirmDeleteClip, .exportClip:
            update { $0.dialog = nil; $0.focus = $0.selectedClip.map { "clip:" + $0 } }
        case .endGame:
            update { $0.dialog = nil; $0.focus = "game:end" }
        case .deleteGameMedia:
            update { $0.dialog = nil; $0.focus = "game:delete-media" }
        case .firstRun:
            update { $0.dialog = nil; $0.focus = scriptRowID }
            firstRunDone()
        case let .rigUpdate(card):
            update { $0.dialog = nil; $0.focus = scriptRowID }
            rigUpdateAnswered(card, false)
        default:
            update { $0.dialog = nil; $0.focus = scriptRowID }
        }
    }

    /// The first-run card, or its new facts (an address came) while it is open. Another
    /// dialog open keeps its place; the card waits for the next facts.
    package func showFirstRun(_ card: FirstRunCard) {
        switch state.dialog {
        case nil: update { $0.dialog = .firstRun(card); $0.focus = "dialog:cancel" }
        case .firstRun: update { $0.dialog = .firstRun(card) }
        default: break
        }
    }

    /// The update dialog's next card (the kiosk's; see RigUpdateCard), or nil to take an
    /// offer back (its stick was pulled out). An offer waits while `busy` (the prompter
    /// playing, a take, a game) or another dialog is open: the kiosk offers it again.
    /// The install's progress replaces what the update dialog shows.
    package func showRigUpdate(_ card: RigUpdateCard?, busy: Bool) {
        switch state.dialog {
        case .rigUpdate(let shown) where card == nil:
            if shown.isOffer { update { $0.dialog = nil; $0.focus = scriptRowID } }
        case nil, .rigUpdate:
            guard let card, !(card.isOffer && busy && state.dialog == nil) else { return }
            update {
                if $0.dialog != .rigUpdate(card) { $0.focus = "dialog:cancel" }
                $0.dialog = .rigUpdate(card)
            }
        default: break
        }
    }

    package func dialogAction(_ id: WidgetID) {
        guard let dialog = state.dialog else { return }
        if id == "dialog:cancel" {
            closeDialog(dialog)
            return
        }
        if case .confirmDeleteClip = dialog { return clipsAction(id) }
        if case .exportClip = dialog { return clipsAction(id) }
        if case let .rigUpdate(.offer(offer)) = dialog, id == "dialog:confirm" {
            update { $0.dialog = .rigUpdate(.installing(version: offer.version)); $0.focus = "dialog:cancel" }
            return rigUpdateAnswered(.offer(offer), true)
        }
        switch dialog {
        case .endGame, .deleteGameMedia:
            // The game's answer: "game:answer:confirm" (delete) or "game:answer:keep".
            update { $0.dialog = nil; $0.focus = nil }
            return gameAction("game:answer:" + id.dropFirst("dialog:".count), 0)
        default: break
        }
        switch dialog {
        case let .confirmDelete(script, title) where id == "dialog:confirm":
            let wasOpen = controller.script?.id == script
            edit("Deleted “\(title)”") { library throws(ScriptLibraryError) in
                try library.delete(id: script)
                return nil
            }
            if wasOpen { KioskLog.notice("deleted the open script \(script); it stays on the prompter until another is opened") }
        case let .rename(script, text) where id == "dialog:confirm":
            edit("Renamed to “\(text)”") { library throws(ScriptLibraryError) in
                let entry = try library.rename(id: script, to: text)
                controller.scriptMoved(from: script, to: entry)
                return entry.id
            }
        case let .renameFolder(name, text) where id == "dialog:confirm":
            var renamed: String?
            edit("Folder “\(name)” renamed to “\(text)”") { _ throws(ScriptLibraryError) in
                renamed = try controller.renameFolder(name, to: text)
                return nil
            }
            if let renamed { update { $0.folder = .folder(renamed); $0.focus = LibraryScreen.folderID(.folder(renamed)) } }
        case let .confirmDeleteFolder(name, _) where id == "dialog:confirm":
            var moved = 0
            let deleted = edit("Folder “\(name)” deleted") { _ throws(ScriptLibraryError) in
                moved = try controller.deleteFolder(name).count
                return nil
            }
            if deleted {
                update {
                    $0.folder = .allScripts
                    $0.focus = LibraryScreen.folderID(.allScripts)
                    $0.notice = "Folder “\(name)” deleted; \(moved == 1 ? "its script is" : "its \(moved) scripts are") at the top level"
                }
            }
        case let .newFolder(text) where id == "dialog:confirm":
            edit("Folder “\(text)” created") { library throws(ScriptLibraryError) in
                _ = try library.createFolder(named: text)
                return nil
            }
        case let .move(script) where id.hasPrefix("dialog:folder:"):
            let name = String(id.dropFirst("dialog:folder:".count))
            edit("Moved “\(title(of: script))” to \(name.isEmpty ? "the top level" : name)") { library throws(ScriptLibraryError) in
                let entry = try library.move(id: script, toFolder: name.isEmpty ? nil : name)
                controller.scriptMoved(from: script, to: entry)
                return entry.id
            }
        default:
            break
        }
    }
}
