import Markup

/// The marks over one line of a script as written, for the console's editor: its
/// Markdown stays visible while the words it marks are drawn as the talent will see
/// them. Line by line, so a span that crosses a soft break shows on neither line.
public enum SourceMarks {
    public static func line(_ line: String, format: ScriptFormat, directions: DirectionMarks) -> ReadingMarkup {
        switch format {
        case .markdown: ReadingMarkup(spans: InlineMarkdown(directions: directions).sourceMarks(line))
        case .plainText: ReadingMarkup(spans: PlainTextDirections.sourceSpans(line, directions: directions))
        }
    }
}
