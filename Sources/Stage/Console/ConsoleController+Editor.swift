import Prompter
import Render

/// The editor's keys, clicks and saving: a moment after typing stops, when the
/// editor is left, and never with a button.
extension ConsoleController {
    package func openEditor(id: String) {
        guard let library = controller.library else { return }
        saveEditor()
        // An imported document's text is the converter's; editing it here would be lost
        // at the next conversion, so the editor refuses it with the reason.
        if library.entry(id: id)?.importedFrom != nil {
            update { $0.notice = "\(ScriptLibraryError.readOnlyImport(id: id))" }
            return
        }
        do {
            let script = try library.readScript(id: id)
            update {
                $0.editor = ScriptEditor(scriptID: id, title: library.entry(id: id)?.title ?? id, text: script.source,
                                         format: script.format, directions: library.directions)
                $0.screen = .editor
                $0.focus = "editor:text"
                $0.dialog = nil
                $0.notice = script.repaired ? "\(id) was not valid UTF-8: saving keeps the replacement characters" : nil
            }
        } catch {
            update { $0.notice = "Cannot edit \(id): \(error)" }
        }
    }

    package func editorKey(_ press: KeyPress) -> Bool {
        if state.focus == "editor:done" {
            if press.symbol == .enter || press.symbol == .space { show(controller.script == nil ? .library : .prompter) }
            if press.symbol == .escape { show(.library) }
            return true
        }
        guard var editor = state.editor else {
            if press.symbol == .escape { show(.library) }
            return true
        }
        switch press.symbol {
        case .escape:
            show(.library)
            return true
        case .left: editor.moveLeft()
        case .right: editor.moveRight()
        case .up: editor.moveLines(-1)
        case .down: editor.moveLines(1)
        case .pageUp: editor.moveLines(-10)
        case .pageDown: editor.moveLines(10)
        case .home: editor.moveToLineStart()
        case .end: editor.moveToLineEnd()
        case .enter: editor.insert("\n")
        case .backspace: editor.deleteBackward()
        case .delete: editor.deleteForward()
        default:
            guard let text = press.text, !press.modifiers.contains(.control) else { return true }
            editor.insert(text)
        }
        let edited = editor.text != state.editor?.text
        keepCaretInView(&editor)
        update {
            $0.editor = editor
            $0.focus = "editor:text"
        }
        if edited { scheduleAutosave() }
        return true
    }

    /// The first line shown follows the caret upwards; the screen follows it downwards.
    private func keepCaretInView(_ editor: inout ScriptEditor) {
        let line = editor.caretLine.line
        let shown = targets.all.compactMap { Int($0.id.dropFirst(EditorScreen.linePrefix.count)) }
        if line < editor.topLine {
            editor.topLine = line
        } else if let last = shown.max(), line > last {
            editor.topLine += line - last
        }
    }

    /// A click in the text: the caret goes to the nearest character of that line.
    package func clickEditorLine(_ target: WidgetTarget, x: Double, y: Double) {
        guard var editor = state.editor, let line = Int(target.id.dropFirst(EditorScreen.linePrefix.count)),
              let built = shownBuild else { return }
        let text = editor.line(line)
        let pad = built.theme.gap * 2
        let lines = text.isEmpty ? [] : built.labels.lines(text, style: TextStyle(fontSize: built.theme.textSize, lineSpacing: 1.15),
                                                         maxWidth: target.rect.width - 2 * pad)
        let column = EditorScreen.column(atX: x - Double(target.rect.x + pad), y: y - Double(target.rect.y),
                                         in: lines, text: text)
        editor.moveTo(line: line, column: column)
        update {
            $0.editor = editor
            $0.focus = "editor:text"
        }
    }

    private func scheduleAutosave() {
        autosaveToken += 1
        let token = autosaveToken
        schedule(now() + Self.autosaveDelay) { [weak self] in
            guard let self, token == self.autosaveToken else { return }
            self.saveEditor()
        }
    }

    /// Writes the edited text (atomically, through the library) if it changed. An edit
    /// of the script on the prompter shows there at once, at the same position.
    package func saveEditor() {
        guard let editor = state.editor, editor.isDirty, let library = controller.library else { return }
        do {
            _ = try library.save(id: editor.scriptID, text: editor.text)
            update { $0.editor?.markSaved() }
            if controller.script?.id == editor.scriptID, let text = try? library.readScript(id: editor.scriptID) {
                controller.replaceText(of: editor.scriptID, with: text)
            }
            KioskLog.info("saved \(editor.scriptID) (\(editor.wordCount) words)")
        } catch {
            update { $0.notice = "Cannot save \(editor.scriptID): \(error)" }
            KioskLog.error("cannot save \(editor.scriptID): \(error)")
        }
    }
}
