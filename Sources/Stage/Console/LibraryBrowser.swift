import Prompter
import Render

/// The library screen: the scripts listed for the sidebar's choice and the search
/// (read again only after a change), the selection kept on a listed script, the
/// screen's keys and buttons and the questions they ask. It decides from the
/// console's state and returns what changes; the console applies it.
final class LibraryBrowser {
    private let controller: PrompterController
    private var cachedListing: (key: LibraryListing.Key, listing: LibraryListing)?
    /// Bumped when the library changes on disk or by an edit here.
    private var generation = 0

    init(controller: PrompterController) {
        self.controller = controller
    }

    /// The library changed: the next listing reads it again.
    func changed() {
        generation += 1
    }

    func listing(search: String, folder: LibrarySelection) -> LibraryListing {
        guard let library = controller.library else { return .empty }
        let key = LibraryListing.Key(search: search, folder: folder, generation: generation)
        if let cachedListing, cachedListing.key == key { return cachedListing.listing }
        let listing = LibraryListing(library, search: search, folder: folder)
        cachedListing = (key, listing)
        return listing
    }

    /// A sidebar folder that is gone (renamed or deleted elsewhere) gives way to All Scripts.
    func dropVanishedFolder(in state: inout ConsoleState) {
        if case let .folder(name) = state.folder, let library = controller.library, !library.folders().contains(name) {
            state.folder = .allScripts
        }
    }

    /// Keeps a selection that is still listed, else selects the first script listed
    /// (the one on the prompter if listed); a focused row follows the selection.
    func keepSelection(in state: inout ConsoleState) {
        guard controller.library != nil else { return }
        let listed = listing(search: state.search, folder: state.folder).scripts
        guard !listed.contains(where: { $0.id == state.selectedScript }) else { return }
        let first = listed.first { $0.id == controller.script?.id } ?? listed.first
        let focusedRow = state.focus?.hasPrefix("script:") == true
        state.selectedScript = first?.id
        if focusedRow { state.focus = first.map { "script:" + $0.id } }
    }

    func title(of id: String) -> String { controller.library?.entry(id: id)?.title ?? id }

    /// The title of the script an open rename or move dialog is about.
    func dialogScript(_ dialog: ConsoleDialog?) -> String? {
        switch dialog {
        case let .rename(id, _), let .move(id): title(of: id)
        default: nil
        }
    }

    // MARK: keys

    /// What a key on the library screen asks for, and whether the console used it.
    func command(for press: KeyPress, state: ConsoleState, targets: WidgetTargets) -> (ConsoleCommand, used: Bool) {
        let focus = state.focus ?? ""
        let scriptRow = state.selectedScript.map { "script:" + $0 } ?? targets.first(inGroup: "scripts")?.id
        switch press.symbol {
        case .up, .pageUp, .down, .pageDown:
            let backwards = press.symbol == .up || press.symbol == .pageUp
            if let next = targets.neighbour(of: focus, backwards: backwards) { return (.focus(next.id), true) }
            if backwards, focus.hasPrefix("script:") { return (.focus("search"), true) }
            let outside = !focus.hasPrefix("folder:") && !focus.hasPrefix("script:")
            return (outside && !backwards ? .focus(scriptRow) : .none, true)
        case .left:
            return (.focus(LibraryScreen.folderID(state.folder)), true)
        case .right:
            return (.focus(scriptRow), true)
        case .enter:
            guard focus == "search" || focus.isEmpty else { return (.activate(focus), true) }
            return (state.selectedScript.map(ConsoleCommand.open) ?? .none, true)
        case .escape:
            if !state.search.isEmpty { return (.search(""), true) }
            return (controller.script != nil ? .show(.prompter) : .none, true)
        case .backspace:
            return (state.search.isEmpty ? .none : .search(String(state.search.dropLast())), true)
        case .delete:
            // On a folder's row the folder is meant; anywhere else the selected script.
            return (focusedFolder(state) != nil ? askToDeleteFolder(state) : askToDelete(state), true)
        case .f2:
            if focusedFolder(state) != nil { return (askToRenameFolder(state), true) }
            return (state.selectedScript.map(askToRename) ?? .none, true)
        case .space where state.search.isEmpty && focus != "search":
            return (focus.isEmpty ? .none : .activate(focus), true)
        default:
            // Everything that types goes into the search, wherever the focus is.
            guard let text = press.text, !press.modifiers.contains(.control) else { return (.none, press.action == nil) }
            return (.search(state.search + text), true)
        }
    }

    // MARK: buttons and questions

    /// A Library button (`library:...`). An edit (New, Duplicate) is made here; the
    /// command shows its outcome.
    func action(_ id: WidgetID, state: ConsoleState) -> ConsoleCommand {
        let selected = state.selectedScript
        let folder: String? = if case let .folder(name) = state.folder { name } else { nil }
        switch id {
        case "library:open": return selected.map(ConsoleCommand.open) ?? .none
        case "library:new": return .libraryEdit(edits.create(in: folder))
        case "library:edit": return selected.map(ConsoleCommand.edit) ?? .none
        case "library:rename": return selected.map(askToRename) ?? .none
        case "library:duplicate": return selected.map { .libraryEdit(edits.duplicate($0, title: title(of: $0))) } ?? .none
        case "library:move":
            guard let selected else { return .none }
            return .change { $0.dialog = .move(id: selected); $0.focus = "dialog:cancel" }
        case "library:delete": return askToDelete(state)
        case "library:new-folder": return .change { $0.dialog = .newFolder(text: ""); $0.focus = "dialog:field" }
        case "library:rename-folder": return askToRenameFolder(state)
        case "library:delete-folder": return askToDeleteFolder(state)
        default: return .none
        }
    }

    /// A library dialog's button: its confirm edits the library; nothing for other dialogs.
    func confirm(_ dialog: ConsoleDialog, _ id: WidgetID) -> ConsoleCommand {
        guard let outcome = edits.confirm(dialog, id, title: title(of:)) else { return .none }
        return .libraryEdit(outcome)
    }

    private var edits: LibraryEdit { LibraryEdit(controller: controller) }

    private func askToDelete(_ state: ConsoleState) -> ConsoleCommand {
        guard let id = state.selectedScript else { return .none }
        let dialog = ConsoleDialog.confirmDelete(id: id, title: title(of: id))
        return .change { $0.dialog = dialog; $0.focus = "dialog:cancel" }
    }

    private func askToRename(_ id: String) -> ConsoleCommand {
        let dialog = ConsoleDialog.rename(id: id, text: title(of: id))
        return .change { $0.dialog = dialog; $0.focus = "dialog:field" }
    }

    private func askToRenameFolder(_ state: ConsoleState) -> ConsoleCommand {
        guard let name = focusedFolder(state) ?? chosenFolder(state) else { return .none }
        return .change { $0.dialog = .renameFolder(name: name, text: name); $0.focus = "dialog:field" }
    }

    private func askToDeleteFolder(_ state: ConsoleState) -> ConsoleCommand {
        guard let name = focusedFolder(state) ?? chosenFolder(state) else { return .none }
        // How many scripts deleting it would move to the top level.
        let count = controller.library?.scripts(in: .folder(name)).count ?? 0
        let dialog = ConsoleDialog.confirmDeleteFolder(name: name, scripts: count)
        return .change { $0.dialog = dialog; $0.focus = "dialog:cancel" }
    }

    /// The library folder the focus is on, if a real one.
    private func focusedFolder(_ state: ConsoleState) -> String? {
        guard let focus = state.focus, focus.hasPrefix("folder:") else { return nil }
        if case let .folder(name)? = LibraryScreen.selection(forFolderID: focus) { return name }
        return nil
    }

    /// The folder the sidebar has chosen (a real folder, not All Scripts or No Folder).
    private func chosenFolder(_ state: ConsoleState) -> String? {
        if case let .folder(name) = state.folder { return name }
        return nil
    }
}
