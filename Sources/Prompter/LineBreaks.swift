/// What a single newline in a plain-text script means (`[prompter] line_breaks`).
/// Markdown ignores it: CommonMark already says (a soft break, see
/// `MarkdownReadingText`).
public enum LineBreaks: String, CaseIterable, Sendable {
    /// Join the lines of a file that looks hard-wrapped (`PlainTextReadingText`'s
    /// rule), keep every other file's lines.
    case auto
    /// Every newline ends a line, as in the file.
    case keep
    /// Every single newline inside a paragraph is a space; blank lines and list items
    /// still start a new line.
    case join
}
