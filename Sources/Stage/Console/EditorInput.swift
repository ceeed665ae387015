import Prompter
import Render

/// The editor's keys and clicks as edits of its text and caret, decided from values;
/// the console applies them and saves a moment after the text changes.
enum EditorInput {
    static func command(for press: KeyPress, state: ConsoleState, targets: WidgetTargets) -> ConsoleCommand {
        if state.focus == "editor:done" {
            if press.symbol == .enter || press.symbol == .space { return .leave }
            return press.symbol == .escape ? .show(.library) : .none
        }
        guard var editor = state.editor, press.symbol != .escape else {
            return press.symbol == .escape ? .show(.library) : .none
        }
        switch press.symbol {
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
            guard let text = press.text, !press.modifiers.contains(.control) else { return .none }
            editor.insert(text)
        }
        keepCaretInView(&editor, targets: targets)
        return .edited(editor)
    }

    /// The first line shown follows the caret upwards; the screen follows it downwards.
    private static func keepCaretInView(_ editor: inout ScriptEditor, targets: WidgetTargets) {
        let line = editor.caretLine.line
        let shown = targets.all.compactMap { Int($0.id.dropFirst(EditorScreen.linePrefix.count)) }
        if line < editor.topLine {
            editor.topLine = line
        } else if let last = shown.max(), line > last {
            editor.topLine += line - last
        }
    }

    /// A click on a line of the text, measured as `build` laid it out: the caret goes
    /// to the nearest character of that line. Nil when the target is no line.
    static func caret(_ editor: ScriptEditor, clickedAt x: Double, y: Double, on target: WidgetTarget,
                      build: ConsoleBuild) -> ScriptEditor? {
        guard let line = Int(target.id.dropFirst(EditorScreen.linePrefix.count)) else { return nil }
        var editor = editor
        let text = editor.line(line)
        let pad = build.theme.gap * 2
        let lines = text.isEmpty ? [] : build.labels.lines(text, style: TextStyle(fontSize: build.theme.textSize, lineSpacing: 1.15),
                                                         maxWidth: target.rect.width - 2 * pad)
        let column = EditorScreen.column(atX: x - Double(target.rect.x + pad), y: y - Double(target.rect.y),
                                         in: lines, text: text)
        editor.moveTo(line: line, column: column)
        return editor
    }
}
