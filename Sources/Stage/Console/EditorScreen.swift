import Prompter
import Render

/// The script editor: the file's text line by line with a caret, its word count and
/// whether it is saved. It saves by itself a moment after typing stops and when it
/// is left; there is no save button.
package enum EditorScreen {
    package static let linePrefix = "editor:line:"

    package static func build(_ model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        guard let editor = model.state.editor else {
            panel.text("Nothing is being edited. Choose a script in the Library and press Edit (or F2 there to rename).",
                       x: area.x, y: area.y, color: theme.secondaryText, maxWidth: area.width)
            return
        }
        let status = editor.isDirty ? "editing, saves by itself" : "saved"
        let header = PixelRect(x: area.x, y: area.y, width: area.width, height: theme.rowHeight)
        panel.text(editor.title, in: PixelRect(x: header.x, y: header.y, width: header.width * 2 / 3, height: header.height),
                   size: theme.titleSize)
        let time = ReadingTime.label(words: editor.wordCount, wordsPerMinute: model.prompter.libraryWordsPerMinute)
        panel.text("\(editor.wordCount) words · \(time) · \(status)", in: header, alignment: .trailing,
                   color: theme.secondaryText)
        let doneWidth = panel.width(of: "Done") + theme.gap * 8
        let textArea = PixelRect(x: area.x, y: header.maxY + theme.gap, width: area.width,
                                 height: area.maxY - header.maxY - theme.gap * 2 - theme.rowHeight)
        panel.fill(textArea, theme.panel)
        lines(editor, panel: panel, area: textArea, focused: model.state.focus == "editor:text"
                || model.state.focus?.hasPrefix(linePrefix) == true, accents: model.prompter.settings.textAccents)
        panel.button("editor:done", "Done",
                     in: PixelRect(x: area.maxX - doneWidth, y: textArea.maxY + theme.gap, width: doneWidth,
                                   height: theme.rowHeight))
        panel.text("Esc or Done goes back. Long scripts are easier to write elsewhere and copy into the scripts folder.",
                   in: PixelRect(x: area.x, y: textArea.maxY + theme.gap, width: area.width - doneWidth - theme.gap * 2,
                                 height: theme.rowHeight),
                   size: theme.smallTextSize, color: theme.secondaryText)
    }

    /// The logical lines from the editor's top line down, each wrapped to the area;
    /// if the caret's line would fall below, the lines above it that fit instead.
    private static func lines(_ editor: ScriptEditor, panel: WidgetPanel, area: PixelRect, focused: Bool,
                              accents: TextAccents) {
        let theme = panel.theme
        let pad = theme.gap * 2
        let width = area.width - 2 * pad
        let style = panel.style()
        let caret = editor.caretLine
        let count = editor.lineStarts.count
        func laidOut(_ index: Int) -> [LaidOutLine] {
            let text = editor.line(index)
            return text.isEmpty ? [] : panel.labels.lines(text, markup: editor.marks(ofLine: index), style: style,
                                                          maxWidth: width)
        }
        let emptyHeight = Int((theme.textSize * 1.4).rounded())
        func height(_ index: Int) -> Int {
            let lines = laidOut(index)
            return lines.isEmpty ? emptyHeight : Int(lines.reduce(0) { $0 + $1.height }.rounded(.up))
        }
        var first = min(max(0, editor.topLine), caret.line)
        var used = 0
        for index in first...caret.line { used += height(index) }
        while used > area.height - 2 * pad && first < caret.line {
            used -= height(first)
            first += 1
        }
        var y = area.y + pad
        var index = first
        while index < count && y < area.maxY - pad {
            let lines = laidOut(index)
            let lineHeight = lines.isEmpty ? emptyHeight : Int(lines.reduce(0) { $0 + $1.height }.rounded(.up))
            if !lines.isEmpty {
                panel.add([.label(Label(lines: lines, x: area.x + pad, y: y, color: theme.text, accents: accents,
                                        painter: panel.labels.painter))])
            }
            let rect = PixelRect(x: area.x, y: y, width: area.width, height: min(lineHeight, area.maxY - y))
            panel.target(WidgetTarget(id: linePrefix + "\(index)", rect: rect, kind: .textField))
            if index == caret.line && focused {
                let position = caretPosition(in: lines, column: caret.column, text: editor.line(index),
                                             emptyHeight: emptyHeight)
                panel.fill(PixelRect(x: area.x + pad + position.x, y: y + position.y, width: max(2, theme.focusWidth),
                                     height: position.height), theme.focus)
            }
            y += lineHeight
            index += 1
        }
    }

    /// Where the caret stands in a wrapped line: after the glyphs of the characters
    /// before it, on the wrapped row holding its character.
    package static func caretPosition(in lines: [LaidOutLine], column: Int, text: String,
                              emptyHeight: Int) -> (x: Int, y: Int, height: Int) {
        guard !lines.isEmpty else { return (0, 0, emptyHeight) }
        let scalar = Int32(String(text.prefix(column)).unicodeScalars.count)
        let row = lines.last { Int32($0.textRange.lowerBound) <= scalar } ?? lines[0]
        let x = row.glyphs.filter { $0.textOffset >= scalar }.map(\.x).min().map(Double.init)
            ?? (row.left + row.width)
        return (Int(x.rounded()), Int((row.y).rounded()), Int(row.height.rounded()))
    }

    /// The caret column nearest to x within a wrapped line (a click in the text).
    package static func column(atX x: Double, y: Double, in lines: [LaidOutLine], text: String) -> Int {
        guard !lines.isEmpty else { return 0 }
        let row = lines.last { $0.y <= y } ?? lines[0]
        let glyph = row.glyphs.min { abs(Double($0.x) - x) < abs(Double($1.x) - x) }
        let beyondEnd = x > row.left + row.width
        let scalar = beyondEnd ? row.textRange.upperBound : Int(glyph?.textOffset ?? Int32(row.textRange.lowerBound))
        var count = 0, scalars = 0
        for character in text {
            if scalars >= scalar { break }
            scalars += character.unicodeScalars.count
            count += 1
        }
        return count
    }
}
