/// Reduces Markdown to the plain text the talent reads: headings, emphasis markers,
/// code markers and links become their text. Not a renderer (the prompter shows one
/// style); just enough CommonMark that no markup is read aloud and that lines break
/// where CommonMark breaks them: a single newline inside a paragraph is a soft break
/// (a space), while a blank line, a hard break (two trailing spaces or a backslash), a
/// heading, a list item, a block quote, a rule and each line of a fenced block start a
/// new line. The layout wraps the rest to the column.
///
/// Indented code blocks are not recognised: a prompter script indents for looks, so an
/// indented line reads as paragraph text (its indentation dropped), as it always has.
enum MarkdownReadingText {
    static func convert(_ markdown: String) -> String {
        convertMarkingHeadings(markdown).text
    }

    /// The reading text and its headings, the script's named markers (at the Unicode
    /// scalar offset where the heading's line starts).
    static func convertMarkingHeadings(_ markdown: String) -> (text: String, markers: [ScriptMarker]) {
        var output: [String] = []
        var headings: [Int] = []
        var fence: String?
        var open: OpenParagraph?
        func flush() {
            if let paragraph = open { output.append(inline(paragraph.source)) }
            open = nil
        }
        for rawLine in markdown.split(omittingEmptySubsequences: false, whereSeparator: \.isNewlineSeparator) {
            var line = String(rawLine)
            if line.hasSuffix("\r") { line.removeLast() }
            let trimmed = line.trimmingLeadingSpaces()
            if let marker = fence {
                if trimmed.hasPrefix(marker) { fence = nil } else { output.append(line) }
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
                if open == nil { output.append("") } else { headings.append(output.count) }
                flush()
                continue
            }
            if isThematicBreak(trimmed) {
                flush()
                output.append("")
                continue
            }
            let (depth, quoted) = stripQuoteMarkers(trimmed)
            let content = quoted.trimmingLeadingSpaces()
            if content.allSatisfy(\.isWhitespace) {
                flush()
                output.append("")
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
        var offset = 0
        let headingSet = Set(headings)
        for (index, entry) in output.enumerated() {
            if headingSet.contains(index) { markers.append(ScriptMarker(name: entry, textOffset: offset)) }
            offset += entry.unicodeScalars.count + 1
        }
        return (output.joined(separator: "\n"), markers)
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

    // MARK: Inline

    private enum Piece {
        case text(String)
        case delimiter(Character, count: Int, canOpen: Bool, canClose: Bool)
    }

    static func inline<S: StringProtocol>(_ source: S) -> String {
        let chars = Array(source)
        var pieces: [Piece] = []
        var i = 0
        func previous(_ index: Int) -> Character { index > 0 ? chars[index - 1] : " " }
        while i < chars.count {
            let c = chars[i]
            if c == "\\", i + 1 < chars.count, chars[i + 1].isASCII, chars[i + 1].isPunctuation || chars[i + 1].isSymbol {
                pieces.append(.text(String(chars[i + 1])))
                i += 2
            } else if c == "`", let (code, next) = codeSpan(chars, at: i) {
                pieces.append(.text(code))
                i = next
            } else if c == "!" || c == "[", let (label, next) = link(chars, at: c == "!" ? i + 1 : i),
                      c == "[" || chars[i + 1] == "[" {
                pieces.append(.text(inline(label)))
                i = next
            } else if c == "<", let (target, next) = autolink(chars, at: i) {
                pieces.append(.text(target))
                i = next
            } else if c == "*" || c == "_" || c == "~" {
                var end = i
                while end < chars.count, chars[end] == c { end += 1 }
                let before = previous(i), after = end < chars.count ? chars[end] : " "
                let left = !after.isWhitespace && (!after.isPunctuation || before.isWhitespace || before.isPunctuation)
                let right = !before.isWhitespace && (!before.isPunctuation || after.isWhitespace || after.isPunctuation)
                var canOpen = left, canClose = right
                if c == "_" {
                    // snake_case and similar: an underscore inside a word is a letter.
                    canOpen = left && (!right || before.isPunctuation)
                    canClose = right && (!left || after.isPunctuation)
                }
                if c == "~", end - i > 2 { canOpen = false; canClose = false }
                pieces.append(.delimiter(c, count: end - i, canOpen: canOpen, canClose: canClose))
                i = end
            } else {
                pieces.append(.text(String(c)))
                i += 1
            }
        }
        return resolveEmphasis(pieces)
    }

    /// Pairs each closing run with the nearest open run of the same character and drops
    /// the matched markers; whatever stays unmatched is printed as written.
    private static func resolveEmphasis(_ pieces: [Piece]) -> String {
        var remaining: [Int] = pieces.map { if case .delimiter(_, let n, _, _) = $0 { return n } else { return 0 } }
        var openers: [Int] = []
        for (index, piece) in pieces.enumerated() {
            guard case .delimiter(let char, _, let canOpen, let canClose) = piece else { continue }
            if canClose {
                var cursor = openers.count - 1
                while cursor >= 0, remaining[index] > 0 {
                    let opener = openers[cursor]
                    if case .delimiter(let openChar, _, _, _) = pieces[opener], openChar == char, remaining[opener] > 0 {
                        let used = min(remaining[opener], remaining[index])
                        remaining[opener] -= used
                        remaining[index] -= used
                        openers.removeSubrange((cursor + 1)...)
                        if remaining[opener] == 0 { openers.remove(at: cursor) }
                    }
                    cursor = min(cursor - 1, openers.count - 1)
                }
            }
            if canOpen, remaining[index] > 0 { openers.append(index) }
        }
        var result = ""
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case .text(let text): result += text
            case .delimiter(let char, _, _, _): result += String(repeating: char, count: remaining[index])
            }
        }
        return result
    }

    private static func codeSpan(_ chars: [Character], at start: Int) -> (String, Int)? {
        var run = start
        while run < chars.count, chars[run] == "`" { run += 1 }
        let width = run - start
        var i = run
        while i < chars.count {
            if chars[i] == "`" {
                var end = i
                while end < chars.count, chars[end] == "`" { end += 1 }
                if end - i == width { return (String(chars[run..<i]), end) }
                i = end
            } else {
                i += 1
            }
        }
        return nil
    }

    /// `[label](target)`, `[label][ref]` or `[label][]` starting at `start` ("[").
    private static func link(_ chars: [Character], at start: Int) -> (String, Int)? {
        guard start < chars.count, chars[start] == "[" else { return nil }
        var depth = 0, i = start
        var close: Int?
        // Labels and targets are short; bounding the search keeps a paragraph full of
        // stray brackets linear (CommonMark caps reference labels at 999 characters).
        let labelEnd = min(chars.count, start + 1000)
        while i < labelEnd {
            if chars[i] == "\\" { i += 2; continue }
            if chars[i] == "[" { depth += 1 }
            if chars[i] == "]" { depth -= 1; if depth == 0 { close = i; break } }
            i += 1
        }
        guard let close, close + 1 < chars.count else { return nil }
        let opener = chars[close + 1]
        guard opener == "(" || opener == "[" else { return nil }
        let closer: Character = opener == "(" ? ")" : "]"
        var nesting = 0, j = close + 1
        let targetEnd = min(chars.count, close + 1 + 4000)
        while j < targetEnd {
            if chars[j] == opener { nesting += 1 }
            if chars[j] == closer { nesting -= 1; if nesting == 0 { break } }
            j += 1
        }
        guard j < targetEnd else { return nil }
        return (String(chars[(start + 1)..<close]), j + 1)
    }

    private static func autolink(_ chars: [Character], at start: Int) -> (String, Int)? {
        // An autolink holds no space, so the search stops at one: a paragraph full of
        // "a < b" must not be scanned to its end from every "<".
        guard let end = chars[start...].firstIndex(where: { $0 == ">" || $0.isWhitespace }), chars[end] == ">"
        else { return nil }
        let inner = String(chars[(start + 1)..<end])
        guard !inner.contains(" "), inner.contains(":") || inner.contains("@") else { return nil }
        return (inner, end + 1)
    }
}

private extension StringProtocol {
    func trimmingLeadingSpaces() -> SubSequence {
        self[...].drop { $0 == " " || $0 == "\t" }
    }
}

private extension StringProtocol {
    func trimmingTrailingSpaces() -> SubSequence {
        var result = self[...]
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
