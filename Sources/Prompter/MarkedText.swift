import Markup

/// A piece of reading text and its marks, offsets relative to the piece: what the
/// script parsers build line by line before the whole text's offsets are known.
struct MarkedText {
    private(set) var text: String
    var spans: [ReadingMarkup.Span]
    /// Kept as text is added: counting a long paragraph's scalars per piece would make
    /// reading it quadratic.
    private(set) var scalarCount: Int

    init(_ text: String, spans: [ReadingMarkup.Span] = []) {
        self.text = text
        self.spans = spans
        scalarCount = text.unicodeScalars.count
    }

    mutating func append(_ string: String) {
        text += string
        scalarCount += string.unicodeScalars.count
    }

    mutating func append(_ other: MarkedText) {
        let base = scalarCount
        text += other.text
        scalarCount += other.scalarCount
        spans += other.spans.map { ReadingMarkup.Span(($0.range.lowerBound + base)..<($0.range.upperBound + base), $0.marks) }
    }

    /// The pieces joined with `separator`; `visit` gets each piece's index and its
    /// offset in the result (where a heading's marker goes).
    static func joined(_ pieces: [MarkedText], separator: String,
                       visit: (Int, Int) -> Void = { _, _ in }) -> MarkedText {
        var result = MarkedText("")
        let gap = MarkedText(separator)
        for (index, piece) in pieces.enumerated() {
            if index > 0 { result.append(gap) }
            visit(index, result.scalarCount)
            result.append(piece)
        }
        return result
    }
}
