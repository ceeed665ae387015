import Markup

/// Reduces Markdown to the plain text the talent reads, and the marks on it: headings,
/// code markers and links become their text; `**strong**`, `*emphasis*` (and `__`/`_`)
/// and `==highlight==` become marks on their words; `[PAUSE]` becomes a direction (and
/// `(smile)` too when `directions` says so). Not a renderer: just enough CommonMark that
/// no markup is read aloud and that lines break where CommonMark breaks them: a single
/// newline inside a paragraph is a soft break (a space), while a blank line, a hard break
/// (two trailing spaces or a backslash), a heading, a list item, a block quote, a rule and
/// each line of a fenced block start a new line. The layout wraps the rest to the column.
///
/// Indented code blocks are not recognised: a prompter script indents for looks, so an
/// indented line reads as paragraph text (its indentation dropped), as it always has.
enum MarkdownReadingText {
    static func convert(_ markdown: String, directions: DirectionMarks = .brackets) -> String {
        convertMarkingHeadings(markdown, directions: directions).text
    }

    /// The reading text, its headings (the script's named markers, at the Unicode
    /// scalar offset where the heading's line starts) and its marks.
    static func convertMarkingHeadings(_ markdown: String, directions: DirectionMarks = .brackets)
        -> (text: String, markers: [ScriptMarker], markup: ReadingMarkup) {
        var output: [MarkedText] = []
        var headings: [Int] = []
        var fence: String?
        var open: OpenParagraph?
        let inline = { (source: Substring) in InlineMarkdown(directions: directions).resolve(source) }
        func flush() {
            if let paragraph = open { output.append(inline(paragraph.source[...])) }
            open = nil
        }
        for rawLine in markdown.split(omittingEmptySubsequences: false, whereSeparator: \.isNewlineSeparator) {
            var line = String(rawLine)
            if line.hasSuffix("\r") { line.removeLast() }
            let trimmed = line.trimmingLeadingSpaces()
            if let marker = fence {
                if trimmed.hasPrefix(marker) { fence = nil } else { output.append(MarkedText(line)) }
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                flush()
                fence = String(trimmed.prefix(3))
                continue
            }
            if isReferenceDefinition(trimmed) { continue }
            if isUnderline(trimmed) {
                // Under a paragraph line it is a setext heading's underline; alone, a rule.
                if open == nil { output.append(MarkedText("")) } else { headings.append(output.count) }
                flush()
                continue
            }
            if isThematicBreak(trimmed) {
                flush()
                output.append(MarkedText(""))
                continue
            }
            let (depth, quoted) = stripQuoteMarkers(trimmed)
            let content = quoted.trimmingLeadingSpaces()
            if content.allSatisfy(\.isWhitespace) {
                flush()
                output.append(MarkedText(""))
                continue
            }
            if let heading = atxHeadingText(content) {
                flush()
                headings.append(output.count)
                output.append(inline(heading))
                continue
            }
            let (body, hardBreak) = splitHardBreak(content)
            if content.first == "|" {
                // A table row: rows are not one paragraph, whatever CommonMark says.
                flush()
                output.append(inline(body))
                continue
            }
            if let item = listItem(body, interrupting: open) {
                flush()
                open = OpenParagraph(source: item, quoteDepth: depth, inList: true, hardBreak: hardBreak)
                continue
            }
            if var paragraph = open, depth <= paragraph.quoteDepth {
                // A continuation line (lazy when it lost its quote markers): a soft break
                // joins with a space, a hard break keeps the line's end.
                // In place: a long paragraph of many lines must not be copied per line.
                while let last = paragraph.source.last, last == " " || last == "\t" { paragraph.source.removeLast() }
                paragraph.source += (paragraph.hardBreak ? "\n" : " ") + body
                paragraph.hardBreak = hardBreak
                open = paragraph
                continue
            }
            flush()
            open = OpenParagraph(source: String(body), quoteDepth: depth, inList: false, hardBreak: hardBreak)
        }
        flush()
        var markers: [ScriptMarker] = []
        let headingSet = Set(headings)
        let joined = MarkedText.joined(output, separator: "\n") { index, offset in
            if headingSet.contains(index) { markers.append(ScriptMarker(name: output[index].text, textOffset: offset)) }
        }
        return (joined.text, markers, ReadingMarkup(spans: joined.spans))
    }

    /// The paragraph being read: its lines joined so far (inline markup still in it, so
    /// emphasis and code spans may cross a soft break).
    private struct OpenParagraph {
        var source: String
        var quoteDepth: Int
        var inList: Bool
        /// The last line ended with a hard break.
        var hardBreak: Bool
    }

    // MARK: Blocks

    private static func isReferenceDefinition(_ line: Substring) -> Bool {
        guard line.first == "[", let close = line.firstIndex(of: "]") else { return false }
        let after = line[line.index(after: close)...]
        return after.hasPrefix(":") && line.distance(from: line.startIndex, to: close) > 1
    }

    private static func isUnderline(_ line: Substring) -> Bool {
        let body = line.trimmingTrailingSpaces()
        guard let first = body.first, first == "=" || first == "-" else { return false }
        return body.allSatisfy { $0 == first }
    }

    private static func isThematicBreak(_ line: Substring) -> Bool {
        let marks = line.filter { !$0.isWhitespace }
        guard marks.count >= 3, let first = marks.first, "*-_".contains(first) else { return false }
        return marks.allSatisfy { $0 == first }
    }

    private static func stripQuoteMarkers(_ line: Substring) -> (depth: Int, rest: Substring) {
        var rest = line, depth = 0
        while rest.first == ">" {
            depth += 1
            rest = rest.dropFirst()
            if rest.first == " " { rest = rest.dropFirst() }
            rest = rest.trimmingLeadingSpaces()
        }
        return (depth, rest)
    }

    /// The text of an ATX heading (`## Title ##`), nil when the line is not one.
    private static func atxHeadingText(_ line: Substring) -> Substring? {
        guard line.first == "#" else { return nil }
        let hashes = line.prefix { $0 == "#" }
        let after = line.dropFirst(hashes.count)
        guard hashes.count <= 6, after.isEmpty || after.first == " " || after.first == "\t" else { return nil }
        var text = after.trimmingLeadingSpaces().trimmingTrailingSpaces()
        // An optional closing run of #s preceded by a space.
        let closing = text.reversed().prefix { $0 == "#" }.count
        if closing > 0 {
            let beforeClosing = text.dropLast(closing)
            if beforeClosing.isEmpty || beforeClosing.last == " " {
                text = beforeClosing.trimmingTrailingSpaces()
            }
        }
        return text
    }

    /// A line's text without its hard-break marker, and whether it had one: two or more
    /// trailing spaces, or an unescaped trailing backslash.
    private static func splitHardBreak(_ line: Substring) -> (Substring, Bool) {
        let spaces = line.reversed().prefix { $0 == " " }.count
        if spaces >= 2 { return (line.dropLast(spaces), true) }
        let body = line.trimmingTrailingSpaces()
        let backslashes = body.reversed().prefix { $0 == "\\" }.count
        if backslashes % 2 == 1 { return (body.dropLast(), true) }
        return (body, false)
    }

    /// A list item's reading text ("• " for a bullet, the number kept for an ordered
    /// item), nil when the line does not start one. As in CommonMark, inside a paragraph
    /// only a bullet or an ordered item numbered 1 starts a list; after an item any
    /// marker starts the next.
    private static func listItem(_ line: Substring, interrupting open: OpenParagraph?) -> String? {
        let interrupts = open.map(\.inList) ?? true
        if let marker = line.first, "-*+".contains(marker), line.dropFirst().first == " " {
            var item = line.dropFirst(2)
            for box in ["[ ] ", "[x] ", "[X] "] where item.hasPrefix(box) {
                item = item.dropFirst(box.count)
            }
            return "• " + item
        }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        let after = line.dropFirst(digits.count)
        guard (1...9).contains(digits.count), let delimiter = after.first, delimiter == "." || delimiter == ")",
              after.dropFirst().first == " " else { return nil }
        guard interrupts || digits == "1" else { return nil }
        return String(line)
    }
}

extension StringProtocol {
    func trimmingLeadingSpaces() -> SubSequence {
        self[...].drop { $0 == " " || $0 == "\t" }
    }
}

extension StringProtocol {
    func trimmingTrailingSpaces() -> SubSequence {
        var result = self[...]
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
