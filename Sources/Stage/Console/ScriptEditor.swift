import Markup
import Prompter

/// The console editor's text and caret: enough to fix a line before a take. The
/// text is kept as characters (grapheme clusters), so the caret never lands inside
/// an emoji or a letter with its accents. Pixel-free; the editor screen draws it.
package struct ScriptEditor: Equatable {
    package let scriptID: String
    package let title: String
    package private(set) var characters: [Character]
    /// Caret position: the index of the character it stands before.
    package private(set) var caret: Int
    /// Text changed since the last save.
    package private(set) var isDirty = false
    /// The first logical line shown; the screen keeps the caret's line in view.
    package var topLine = 0
    /// The column Up and Down aim for, kept across short lines until the caret moves otherwise.
    private var goalColumn: Int?

    /// How the text is read (Markdown or plain, and which brackets are directions): the
    /// word count is of what the talent says, as the library counts it.
    private let format: ScriptFormat
    private let directions: DirectionMarks
    /// Words the talent says, recounted after each edit (not per frame: a long Markdown
    /// script takes milliseconds to read).
    package private(set) var wordCount = 0

    package init(scriptID: String, title: String, text: String, format: ScriptFormat = .plainText,
                 directions: DirectionMarks = .brackets) {
        self.scriptID = scriptID
        self.title = title
        self.format = format
        self.directions = directions
        characters = Array(text)
        caret = 0
        recount()
    }

    package var text: String { String(characters) }

    /// The marks over logical line `index` as written: the editor draws its marked
    /// words as the talent will see them.
    package func marks(ofLine index: Int) -> ReadingMarkup {
        SourceMarks.line(line(index), format: format, directions: directions)
    }

    private mutating func recount() {
        let reading = ScriptLibrary.readingTextAndMarkers(text, format: format, lineBreaks: .keep, directions: directions)
        wordCount = ReadingTime.wordCount(reading.text, markup: reading.markup)
    }

    package mutating func markSaved() { isDirty = false }

    // MARK: editing

    package mutating func insert(_ string: String) {
        let inserted = Array(string)
        guard !inserted.isEmpty else { return }
        goalColumn = nil
        characters.insert(contentsOf: inserted, at: caret)
        caret += inserted.count
        isDirty = true
        recount()
    }

    package mutating func deleteBackward() {
        guard caret > 0 else { return }
        goalColumn = nil
        characters.remove(at: caret - 1)
        caret -= 1
        isDirty = true
        recount()
    }

    package mutating func deleteForward() {
        guard caret < characters.count else { return }
        goalColumn = nil
        characters.remove(at: caret)
        isDirty = true
        recount()
    }

    // MARK: moving

    package mutating func moveLeft() { move(to: max(0, caret - 1)) }
    package mutating func moveRight() { move(to: min(characters.count, caret + 1)) }
    package mutating func moveToLineStart() { move(to: lineStart(of: caret)) }
    package mutating func moveToLineEnd() { move(to: lineEnd(of: caret)) }

    private mutating func move(to index: Int) {
        caret = index
        goalColumn = nil
    }

    /// Up or down by logical lines, keeping the column where the target line allows.
    package mutating func moveLines(_ count: Int) {
        let column = goalColumn ?? caret - lineStart(of: caret)
        goalColumn = column
        var start = lineStart(of: caret)
        if count < 0 {
            for _ in 0..<(-count) where start > 0 { start = lineStart(of: start - 1) }
        } else {
            for _ in 0..<count {
                let end = lineEnd(of: start)
                guard end < characters.count else { break }
                start = end + 1
            }
        }
        caret = min(start + column, lineEnd(of: start))
    }

    /// Puts the caret at `column` of logical line `line` (a click in the text).
    package mutating func moveTo(line: Int, column: Int) {
        let starts = lineStarts
        let start = starts[min(max(line, 0), starts.count - 1)]
        move(to: min(start + max(column, 0), lineEnd(of: start)))
    }

    // MARK: lines

    /// Index of the first character of every logical line.
    package var lineStarts: [Int] {
        var starts = [0]
        for (index, character) in characters.enumerated() where character == "\n" { starts.append(index + 1) }
        return starts
    }

    /// The caret's logical line and its column in it.
    package var caretLine: (line: Int, column: Int) {
        let starts = lineStarts
        let line = (starts.lastIndex { $0 <= caret }) ?? 0
        return (line, caret - starts[line])
    }

    package func line(_ index: Int) -> String {
        let starts = lineStarts
        guard starts.indices.contains(index) else { return "" }
        return String(characters[starts[index]..<lineEnd(of: starts[index])])
    }

    private func lineStart(of index: Int) -> Int {
        var position = min(index, characters.count)
        while position > 0 && characters[position - 1] != "\n" { position -= 1 }
        return position
    }

    private func lineEnd(of index: Int) -> Int {
        var position = min(index, characters.count)
        while position < characters.count && characters[position] != "\n" { position += 1 }
        return position
    }
}
