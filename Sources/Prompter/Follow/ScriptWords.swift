import Markup

/// The script's words as voice follow hears them. Words are counted exactly as
/// `ReadingTime.wordCount` counts them (runs of non-whitespace holding a letter or
/// digit, directions left out: the talent does not say them), so `index` is the number
/// the status reports. Each word has one or more
/// spoken tokens: lower case, punctuation dropped, split at hyphens and slashes
/// ("free-software" is said as two words).
public struct ScriptWords: Sendable, Equatable {
    public struct Word: Sendable, Equatable {
        public let index: Int
        /// Unicode-scalar offset of the word in the text (what a layout maps to a line).
        public let scalarOffset: Int
        public let spoken: [String]
        /// A sentence ends after this word ('.', '!', '?').
        public let endsSentence: Bool
    }

    public let words: [Word]
    /// All spoken tokens in order, and the script word each belongs to.
    public let tokens: [String]
    public let tokenWord: [Int]

    public init(_ text: String, markup: ReadingMarkup = .none) {
        let directions = DirectionCursor(markup)
        var words: [Word] = []
        var current: [Unicode.Scalar] = []
        var start = 0
        var position = 0
        func flush() {
            defer { current = [] }
            guard !directions.contains(start),
                  current.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) else { return }
            var pieces: [String] = []
            var piece = ""
            for scalar in current {
                if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                    piece += String(scalar).lowercased()
                } else if scalar == "'" || scalar == "\u{2019}" {
                    if !piece.isEmpty { piece += "'" }
                } else if !piece.isEmpty {
                    pieces.append(piece.trimmingApostrophes)
                    piece = ""
                }
            }
            if !piece.isEmpty { pieces.append(piece.trimmingApostrophes) }
            // The last mark before closing quotes and brackets decides ("end.)" ends a sentence).
            let closing = current.reversed().first { !"\")]'\u{201D}".unicodeScalars.contains($0) }
            let ends = closing.map { $0 == "." || $0 == "!" || $0 == "?" } ?? false
            words.append(Word(index: words.count, scalarOffset: start, spoken: pieces.filter { !$0.isEmpty },
                              endsSentence: ends))
        }
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                flush()
            } else {
                if current.isEmpty { start = position }
                current.append(scalar)
            }
            position += 1
        }
        flush()
        self.words = words
        tokens = words.flatMap(\.spoken)
        tokenWord = words.flatMap { word in word.spoken.map { _ in word.index } }
    }

    /// The spoken tokens split at sentence ends, for the language model.
    public var sentences: [[String]] {
        var result: [[String]] = [[]]
        for word in words {
            result[result.count - 1] += word.spoken
            if word.endsSentence { result.append([]) }
        }
        return result.filter { !$0.isEmpty }
    }
}

private extension String {
    var trimmingApostrophes: String {
        var s = Substring(self)
        while s.hasSuffix("'") { s = s.dropLast() }
        return String(s)
    }
}
