import Prompter

/// The editor's side of the library: a script read for editing, the edited text
/// written back, and the autosave a moment after typing stops (there is no Save button).
final class ScriptEditorStore {
    /// The editor saves this long after the last keystroke.
    static let autosaveDelay = 1.0
    private let controller: PrompterController
    /// Only the last keystroke's autosave runs.
    private var autosaveToken = 0

    init(controller: PrompterController) {
        self.controller = controller
    }

    /// The editor opened on the script, or the notice saying why it cannot be.
    func open(_ id: String, in state: inout ConsoleState) {
        guard let library = controller.library else { return }
        // An imported document's text is the converter's; editing it here would be lost
        // at the next conversion, so the editor refuses it with the reason.
        if library.entry(id: id)?.importedFrom != nil {
            state.notice = "\(ScriptLibraryError.readOnlyImport(id: id))"
            return
        }
        do {
            let script = try library.readScript(id: id)
            state.editor = ScriptEditor(scriptID: id, title: library.entry(id: id)?.title ?? id, text: script.source,
                                        format: script.format, directions: library.directions)
            state.screen = .editor
            state.focus = "editor:text"
            state.dialog = nil
            state.notice = script.repaired ? "\(id) was not valid UTF-8: saving keeps the replacement characters" : nil
        } catch {
            state.notice = "Cannot edit \(id): \(error)"
        }
    }

    /// Writes the edited text atomically, through the library (there is one: the
    /// editor opened from it).
    func write(_ editor: ScriptEditor) throws(ScriptLibraryError) {
        _ = try controller.library?.save(id: editor.scriptID, text: editor.text)
    }

    /// After a write: an edit of the script on the prompter shows there at once, at
    /// the same position.
    func written(_ editor: ScriptEditor) {
        if controller.script?.id == editor.scriptID, let text = try? controller.library?.readScript(id: editor.scriptID) {
            controller.replaceText(of: editor.scriptID, with: text)
        }
        KioskLog.info("saved \(editor.scriptID) (\(editor.wordCount) words)")
    }

    /// `save` runs `autosaveDelay` after now, unless another keystroke came since.
    func autosave(now: Double, schedule: (Double, @escaping () -> Void) -> Void, save: @escaping () -> Void) {
        autosaveToken += 1
        let token = autosaveToken
        schedule(now + Self.autosaveDelay) { [weak self] in
            guard let self, token == self.autosaveToken else { return }
            save()
        }
    }
}
