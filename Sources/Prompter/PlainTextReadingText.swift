/// A plain-text script's line breaks. A file hard-wrapped at a fixed width (e-mail,
/// licences, anything pasted from a terminal) has a newline wherever the writer's editor
/// ran out of room; the prompter's column is another width, so kept as they are those
/// newlines leave a stub of a line after every full one. Such a file's lines are joined
/// inside paragraphs and the layout wraps them; any other file (poetry, lyrics, lists, a
/// sentence per line) keeps its breaks.
///
/// The rule (the README says the same in words):
/// - The *wrap width* is the length, in characters with tabs to the next multiple of 8,
///   that 90 % of the non-blank lines do not exceed.
/// - A *run-on line* is a non-blank line followed by a non-blank line that does not start
///   a list item (`- `, `* `, `+ `, `• `, `1. `, `1) `, `a) `, `(a) `).
/// - A run-on line *reaches the width* when it is at least 3/4 of the wrap width long, or
///   when the next line's first word would not have fitted on it.
/// - The file is *hard-wrapped* when its wrap width is at least 50, it has at least 3
///   run-on lines, at least 2/3 of them reach the width, and fewer than 1/3 of them end in
///   punctuation (`. , ; : ! ? …`, with any closing quote or bracket after it).
/// - In a hard-wrapped file each run-on line that reaches the width is joined to the
///   next with a space (none after a word broken at a hyphen, "well-" + "known"). Blank
///   lines, list items and lines that stop well short stay as they are.
public enum PlainTextReadingText {
    static let minimumWrapWidth = 50

    public static func convert(_ text: String, lineBreaks: LineBreaks) -> String {
        switch lineBreaks {
        case .keep:
            return text
        case .join:
            return join(lines(of: text)) { _, _ in true }
        case .auto:
            let lines = lines(of: text)
            guard let width = hardWrapWidth(lines) else { return text }
            return join(lines) { line, next in reachesWidth(line, next: next, width: width) }
        }
    }

    /// Joins as a hard-wrapped file of `width` would (nil: keeps the breaks): a piece of
    /// a file whose width was found over the whole file.
    static func convert(_ text: String, wrapWidth width: Int?) -> String {
        guard let width else { return text }
        return join(lines(of: text)) { line, next in reachesWidth(line, next: next, width: width) }
    }

    /// The wrap width when `text` reads as hard-wrapped by the rule above, else nil.
    public static func hardWrapWidth(of text: String) -> Int? {
        hardWrapWidth(lines(of: text))
    }

    // MARK: The rule

    private static func hardWrapWidth(_ lines: [Substring]) -> Int? {
        let lengths = lines.filter { !isBlank($0) }.map(columns).sorted()
        guard !lengths.isEmpty else { return nil }
        let width = lengths[min(lengths.count - 1, lengths.count * 9 / 10)]
        guard width >= minimumWrapWidth else { return nil }
        var runOn = 0, reaching = 0, punctuated = 0
        for (line, next) in zip(lines, lines.dropFirst()) where isRunOn(line, next: next) {
            runOn += 1
            if reachesWidth(line, next: next, width: width) { reaching += 1 }
            if endsInPunctuation(line) { punctuated += 1 }
        }
        guard runOn >= 3, reaching * 3 >= runOn * 2, punctuated * 3 < runOn else { return nil }
        return width
    }

    private static func isRunOn(_ line: Substring, next: Substring) -> Bool {
        !isBlank(line) && !isBlank(next) && !startsListItem(next)
    }

    private static func reachesWidth(_ line: Substring, next: Substring, width: Int) -> Bool {
        let length = columns(line)
        if length * 4 >= width * 3 { return true }
        let firstWord = next.drop(while: \.isWhitespace).prefix { !$0.isWhitespace }
        return length + 1 + firstWord.count > width
    }

    private static func endsInPunctuation(_ line: Substring) -> Bool {
        let closers: Set<Character> = ["\"", "'", ")", "]", "\u{201D}", "\u{2019}", "\u{00BB}"]
        let body = line.trimmingTrailingWhitespace().reversed().drop { closers.contains($0) }
        guard let last = body.first else { return false }
        return ".,;:!?\u{2026}".contains(last)
    }

    /// `- `, `* `, `+ `, `• `, `1. `, `1) `, `a) ` or `(a) ` after any indentation.
    static func startsListItem(_ line: Substring) -> Bool {
        let rest = line.drop { $0 == " " || $0 == "\t" }
        func spaceAfter(_ count: Int) -> Bool { rest.dropFirst(count).first == " " }
        guard let first = rest.first else { return false }
        if "-*+\u{2022}".contains(first) { return spaceAfter(1) }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }.count
        if (1...9).contains(digits), let mark = rest.dropFirst(digits).first, mark == "." || mark == ")" {
            return spaceAfter(digits + 1)
        }
        if first.isLetter, rest.dropFirst().first == ")" { return spaceAfter(2) }
        if first == "(", let close = rest.firstIndex(of: ")") {
            let label = rest[rest.index(after: rest.startIndex)..<close]
            return (1...4).contains(label.count) && label.allSatisfy { $0.isLetter || $0.isNumber }
                && rest[rest.index(after: close)...].first == " "
        }
        return false
    }

    // MARK: Lines

    private static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewlineSeparator)
    }

    private static func isBlank(_ line: Substring) -> Bool { line.allSatisfy(\.isWhitespace) }

    /// Characters, with a tab running to the next multiple of 8 as a terminal shows it.
    private static func columns(_ line: Substring) -> Int {
        var count = 0
        for character in line.trimmingTrailingWhitespace() {
            count = character == "\t" ? (count / 8 + 1) * 8 : count + 1
        }
        return count
    }

    /// Joins each run-on line to the next where `shouldJoin` says so.
    private static func join(_ lines: [Substring], where shouldJoin: (Substring, Substring) -> Bool) -> String {
        var output: [String] = []
        var previous: Substring?
        for line in lines {
            if let before = previous, isRunOn(before, next: line), shouldJoin(before, line), var last = output.popLast() {
                // In place: a long paragraph of many lines must not be copied per line.
                while let end = last.last, end.isWhitespace { last.removeLast() }
                let continuation = line.drop { $0 == " " || $0 == "\t" }
                if !brokenAtHyphen(last, continuation) { last.append(" ") }
                last.append(contentsOf: continuation)
                output.append(last)
            } else {
                output.append(String(line))
            }
            previous = line
        }
        return output.joined(separator: "\n")
    }

    /// "well-" at the end of a line and "known" at the start of the next: one word.
    private static func brokenAtHyphen(_ line: String, _ next: Substring) -> Bool {
        guard line.last == "-", let before = line.dropLast().last, before.isLetter,
              let after = next.first else { return false }
        return after.isLowercase
    }
}

private extension StringProtocol {
    func trimmingTrailingWhitespace() -> SubSequence {
        var result = self[...]
        while let last = result.last, last.isWhitespace { result = result.dropLast() }
        return result
    }
}

extension Character {
    /// LF, and CRLF (one Character in Swift, so splitting at "\n" alone misses it).
    var isNewlineSeparator: Bool { self == "\n" || self == "\r\n" }
}
