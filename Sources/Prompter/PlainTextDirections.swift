import Markup

/// Directions in a plain-text script: `[PAUSE]` (and `(smile)` when the setting says
/// so) within one line is a direction. A backslash before an opening bracket makes it
/// text and is itself dropped (the talent should not read a stray backslash).
enum PlainTextDirections {
    /// The text without the escaping backslashes, its directions, and for each offset
    /// of the given text the offset it moved to (markers are placed before this pass).
    static func mark(_ text: String, directions: DirectionMarks) -> (MarkedText, moved: (Int) -> Int) {
        guard directions != .off, text.contains("[") || directions == .parentheses && text.contains("(") else {
            return (MarkedText(text), { $0 })
        }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var spans: [ReadingMarkup.Span] = []
        var dropped: [Int] = []   // offsets in the given text of dropped backslashes
        var i = 0
        while i < scalars.count {
            let s = scalars[i]
            if s == "\\", i + 1 < scalars.count, directions.opens(Character(scalars[i + 1])) != nil {
                dropped.append(i)
                out.append(scalars[i + 1])
                i += 2
                continue
            }
            if let close = directions.opens(Character(s)), let end = closing(scalars, from: i, open: s, close: close) {
                let start = out.count
                out.append(contentsOf: scalars[i...end])
                spans.append(ReadingMarkup.Span(start..<out.count, .direction))
                i = end + 1
                continue
            }
            out.append(s)
            i += 1
        }
        let moved = { (offset: Int) -> Int in
            var low = 0, high = dropped.count
            while low < high {
                let mid = (low + high) / 2
                if dropped[mid] < offset { low = mid + 1 } else { high = mid }
            }
            return offset - low
        }
        return (MarkedText(String(out), spans: spans), moved)
    }

    /// The directions of a line as written (backslashes kept), in its scalar offsets.
    static func sourceSpans(_ line: String, directions: DirectionMarks) -> [ReadingMarkup.Span] {
        guard directions != .off else { return [] }
        let scalars = Array(line.unicodeScalars)
        var spans: [ReadingMarkup.Span] = []
        var i = 0
        while i < scalars.count {
            if scalars[i] == "\\", i + 1 < scalars.count { i += 2; continue }
            if let close = directions.opens(Character(scalars[i])),
               let end = closing(scalars, from: i, open: scalars[i], close: close) {
                spans.append(ReadingMarkup.Span(i..<(end + 1), .direction))
                i = end + 1
                continue
            }
            i += 1
        }
        return spans
    }

    /// The index of the bracket closing the one at `start` on the same line, when what
    /// it encloses is more than spaces.
    private static func closing(_ scalars: [Unicode.Scalar], from start: Int, open: Unicode.Scalar,
                                close: Character) -> Int? {
        var depth = 0, i = start, ink = false
        let end = min(scalars.count, start + 1000)
        while i < end {
            let s = scalars[i]
            if s == "\n" { return nil }
            if s == "\\" { i += 2; continue }
            if s == open { depth += 1 } else if Character(s) == close {
                depth -= 1
                if depth == 0 { return ink ? i : nil }
            } else if !s.properties.isWhitespace { ink = true }
            i += 1
        }
        return nil
    }
}
