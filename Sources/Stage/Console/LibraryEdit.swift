import Prompter
import Render

/// The library's edits the console makes (a Library button, a dialog's confirm), done
/// through the library or the prompter controller (which follows a script that moved)
/// and returned as what the console shows of them.
struct LibraryEdit {
    /// What an edit came to: its notice under the list, and when it worked the
    /// script to select and a further change of the console's state.
    struct Outcome {
        var worked: Bool
        var notice: String
        var select: String?
        var after: ((inout ConsoleState) -> Void)?
        /// The selected script opens in the editor once it worked (a new script).
        var thenEdit = false
    }

    let controller: PrompterController

    /// A new empty script in `folder` (nil: the top level), selected and opened in the editor.
    func create(in folder: String?) -> Outcome? {
        var outcome = run("New script created") { library throws(ScriptLibraryError) in try library.createScript(in: folder).id }
        outcome?.thenEdit = true
        return outcome
    }

    func duplicate(_ id: String, title: String) -> Outcome? {
        run("Duplicated “\(title)”") { library throws(ScriptLibraryError) in try library.duplicate(id: id).id }
    }

    /// A library dialog's button `id`: nil when it is no confirm of a library dialog, or
    /// there is no library.
    func confirm(_ dialog: ConsoleDialog, _ id: WidgetID, title: (String) -> String) -> Outcome? {
        switch dialog {
        case let .confirmDelete(script, title) where id == "dialog:confirm":
            let wasOpen = controller.script?.id == script
            defer {
                if wasOpen { KioskLog.notice("deleted the open script \(script); it stays on the prompter until another is opened") }
            }
            return run("Deleted “\(title)”") { library throws(ScriptLibraryError) in
                try library.delete(id: script)
                return nil
            }
        case let .rename(script, text) where id == "dialog:confirm":
            return run("Renamed to “\(text)”") { library throws(ScriptLibraryError) in
                let entry = try library.rename(id: script, to: text)
                controller.scriptMoved(from: script, to: entry)
                return entry.id
            }
        case let .renameFolder(name, text) where id == "dialog:confirm":
            var renamed = name
            var outcome = run("Folder “\(name)” renamed to “\(text)”") { library throws(ScriptLibraryError) in
                let rename = try library.renameFolder(name, to: text)
                controller.scriptsMoved(rename.moved)
                renamed = rename.name
                return nil
            }
            outcome?.after = { $0.folder = .folder(renamed); $0.focus = LibraryScreen.folderID(.folder(renamed)) }
            return outcome
        case let .confirmDeleteFolder(name, _) where id == "dialog:confirm":
            var moved = 0
            var outcome = run("Folder “\(name)” deleted") { library throws(ScriptLibraryError) in
                let scripts = try library.deleteFolder(name)
                controller.scriptsMoved(scripts)
                moved = scripts.count
                return nil
            }
            let notice = "Folder “\(name)” deleted; \(moved == 1 ? "its script is" : "its \(moved) scripts are") at the top level"
            outcome?.after = {
                $0.folder = .allScripts
                $0.focus = LibraryScreen.folderID(.allScripts)
                $0.notice = notice
            }
            return outcome
        case let .newFolder(text) where id == "dialog:confirm":
            return run("Folder “\(text)” created") { library throws(ScriptLibraryError) in
                _ = try library.createFolder(named: text)
                return nil
            }
        case let .move(script) where id.hasPrefix("dialog:folder:"):
            let name = String(id.dropFirst("dialog:folder:".count))
            return run("Moved “\(title(script))” to \(name.isEmpty ? "the top level" : name)") { library throws(ScriptLibraryError) in
                let entry = try library.move(id: script, toFolder: name.isEmpty ? nil : name)
                controller.scriptMoved(from: script, to: entry)
                return entry.id
            }
        default:
            return nil
        }
    }

    /// Runs `body`, which returns the script to select; `done` is the notice when it works.
    private func run(_ done: String, _ body: (ScriptLibrary) throws(ScriptLibraryError) -> String?) -> Outcome? {
        guard let library = controller.library else { return nil }
        do {
            return Outcome(worked: true, notice: done, select: try body(library))
        } catch {
            return Outcome(worked: false, notice: "\(error)")
        }
    }
}
