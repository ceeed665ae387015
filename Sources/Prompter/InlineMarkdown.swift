import Markup

/// One line or paragraph of Markdown's inline syntax reduced to its text and marks:
/// escapes, code spans, links and autolinks become their text; emphasis delimiters
/// (`*`, `_`, `==`, `~~`) pair as CommonMark pairs them and mark what they enclose;
/// a bracketed direction keeps its brackets and is marked as one.
///
/// The same marks are also given over the source itself (`sourceMarks`): the editor
/// shows the Markdown as written, its marked words as the talent will see them.
struct InlineMarkdown {
    let directions: DirectionMarks

    private enum Piece {
        case text(String)
        /// Resolved inner text (a link's label, a direction) and its marks over the
        /// source, in character indices of the whole source.
        case marked(MarkedText, source: [ReadingMarkup.Span])
        case delimiter(Character, count: Int, canOpen: Bool, canClose: Bool)
    }

    func resolve<S: StringProtocol>(_ source: S) -> MarkedText {
        resolveBoth(Array(source), from: 0).reading
    }

    /// The marks over `line` as written, in its Unicode scalar offsets.
    func sourceMarks(_ line: String) -> [ReadingMarkup.Span] {
        let chars = Array(line)
        var scalarStart = [Int](repeating: 0, count: chars.count + 1)
        for (index, char) in chars.enumerated() { scalarStart[index + 1] = scalarStart[index] + char.unicodeScalars.count }
        return resolveBoth(chars, from: 0).source.map {
            ReadingMarkup.Span(scalarStart[$0.range.lowerBound]..<scalarStart[$0.range.upperBound], $0.marks)
        }
    }

    /// `chars[from...]` resolved: the reading text and its marks, and the marks over
    /// the source in character indices of `chars`.
    private func resolveBoth(_ all: [Character], from base: Int, to end: Int? = nil)
        -> (reading: MarkedText, source: [ReadingMarkup.Span]) {
        let chars = Array(all[base..<(end ?? all.count)])
        var pieces: [Piece] = []
        var ranges: [Range<Int>] = []   // each piece's characters in `all`
        var i = 0
        var pieceStart = 0
        func added() {
            while ranges.count < pieces.count { ranges.append((base + pieceStart)..<(base + i)) }
            pieceStart = i
        }
        func previous(_ index: Int) -> Character { index > 0 ? chars[index - 1] : " " }
        while i < chars.count {
            let c = chars[i]
            if c == "\\", i + 1 < chars.count, chars[i + 1].isASCII, chars[i + 1].isPunctuation || chars[i + 1].isSymbol {
                pieces.append(.text(String(chars[i + 1])))
                i += 2
            } else if c == "`", let (code, next) = Self.codeSpan(chars, at: i) {
                pieces.append(.text(code))
                i = next
            } else if c == "!" || c == "[", let (labelStart, labelEnd, next) = Self.link(chars, at: c == "!" ? i + 1 : i),
                      c == "[" || chars[i + 1] == "[" {
                let label = resolveBoth(all, from: base + labelStart, to: base + labelEnd)
                pieces.append(.marked(label.reading, source: label.source))
                i = next
            } else if c == "<", let (target, next) = Self.autolink(chars, at: i) {
                pieces.append(.text(target))
                i = next
            } else if let close = directions.opens(c), let (innerEnd, next) = Self.bracketed(chars, at: i, close: close) {
                let inner = resolveBoth(all, from: base + i + 1, to: base + innerEnd)
                var direction = MarkedText(String(c))
                direction.append(inner.reading)
                direction.append(MarkedText(String(close)))
                direction.spans.append(ReadingMarkup.Span(0..<direction.scalarCount, .direction))
                pieces.append(.marked(direction, source: inner.source + [
                    ReadingMarkup.Span((base + i)..<(base + next), .direction),
                ]))
                i = next
            } else if c == "*" || c == "_" || c == "~" || c == "=" {
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
                // Only `==` highlights: a lone or tripled `=` is text (a = b, ===).
                if c == "=", end - i != 2 { canOpen = false; canClose = false }
                pieces.append(.delimiter(c, count: end - i, canOpen: canOpen, canClose: canClose))
                i = end
            } else {
                pieces.append(.text(String(c)))
                i += 1
            }
            added()
        }
        return Self.resolveEmphasis(pieces, ranges: ranges)
    }

    /// Pairs each closing run with the nearest open run of the same character, drops
    /// the matched delimiters and marks what lies between (two of `*`/`_` strong, one
    /// emphasis, three both; `==` highlight; `~~` nothing: a prompter does not strike
    /// out); whatever stays unmatched is printed as written.
    private static func resolveEmphasis(_ pieces: [Piece], ranges: [Range<Int>])
        -> (reading: MarkedText, source: [ReadingMarkup.Span]) {
        var remaining: [Int] = pieces.map { if case .delimiter(_, let n, _, _) = $0 { return n } else { return 0 } }
        var openers: [Int] = []
        var pairs: [(opener: Int, closer: Int, marks: TextMarks)] = []
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
                        pairs.append((opener, index, marks(char, used: used)))
                        openers.removeSubrange((cursor + 1)...)
                        if remaining[opener] == 0 { openers.remove(at: cursor) }
                    }
                    cursor = min(cursor - 1, openers.count - 1)
                }
            }
            if canOpen, remaining[index] > 0 { openers.append(index) }
        }
        // Each piece's start and end in the result: an opener's marks start after the
        // delimiter characters it still prints, a closer's end before them.
        var result = MarkedText("")
        var source: [ReadingMarkup.Span] = []
        var starts: [Int] = [], ends: [Int] = []
        for (index, piece) in pieces.enumerated() {
            starts.append(result.scalarCount)
            switch piece {
            case .text(let text): result.append(text)
            case let .marked(marked, inner):
                result.append(marked)
                source += inner
            case .delimiter(let char, _, _, _): result.append(String(repeating: char, count: remaining[index]))
            }
            ends.append(result.scalarCount)
        }
        for pair in pairs where !pair.marks.isEmpty && ends[pair.opener] < starts[pair.closer] {
            result.spans.append(ReadingMarkup.Span(ends[pair.opener]..<starts[pair.closer], pair.marks))
            source.append(ReadingMarkup.Span(ranges[pair.opener].upperBound..<ranges[pair.closer].lowerBound, pair.marks))
        }
        return (result, source)
    }

    private static func marks(_ char: Character, used: Int) -> TextMarks {
        switch char {
        case "*", "_":
            var marks: TextMarks = []
            if used >= 2 { marks.insert(.strong) }
            if used % 2 == 1 { marks.insert(.emphasis) }
            return marks
        case "=": return .highlight
        default: return []
        }
    }

    /// A direction's inner text from `start` (its opening bracket) to the matching
    /// `close` on the same line: not empty, nested brackets balanced, escapes skipped.
    /// Returns the index of the closing bracket and the index after it.
    private static func bracketed(_ chars: [Character], at start: Int, close: Character) -> (Int, Int)? {
        let open = chars[start]
        var depth = 0, i = start
        let end = min(chars.count, start + 1000)
        while i < end {
            let c = chars[i]
            if c == "\\" { i += 2; continue }
            if c == "\n" { return nil }
            if c == open { depth += 1 }
            if c == close {
                depth -= 1
                if depth == 0 {
                    guard !chars[(start + 1)..<i].allSatisfy(\.isWhitespace) else { return nil }
                    return (i, i + 1)
                }
            }
            i += 1
        }
        return nil
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

    /// `[label](target)`, `[label][ref]` or `[label][]` starting at `start` ("["): the
    /// label's first index and end, and the index after the link.
    private static func link(_ chars: [Character], at start: Int) -> (Int, Int, Int)? {
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
        return (start + 1, close, j + 1)
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
