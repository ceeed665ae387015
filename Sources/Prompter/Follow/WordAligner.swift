/// Where in the script the talent is, from the last words the recogniser heard.
///
/// Local alignment (Smith-Waterman) of the heard tail against a window of the script
/// around the current position: a match scores, a heard word the script lacks (an
/// ad-lib, a misrecognition) and a script word not heard (a skip) cost, and the
/// alignment must end at the last heard word, so the script token it ends on is where
/// the talent is now. Stays local: the window reaches a little back (repeats) and
/// further ahead (skips); a move backwards, or a jump anywhere in the script when the
/// window finds nothing, needs several matching words, so one misheard word never
/// moves the position back.
public struct WordAligner: Sendable, Equatable {
    public struct Position: Sendable, Equatable {
        /// Index into `ScriptWords.tokens`.
        public let token: Int
        /// The script word (as `ReadingTime.wordCount` counts them).
        public let word: Int
        /// 0...1: the share of the heard tail that matched, in order.
        public let confidence: Double
        public let matches: Int
    }

    public static let tailLength = 8
    public static let lookBehind = 12
    public static let lookAhead = 60
    /// Matching words needed to move back, or to jump outside the window.
    public static let backwardMatches = 3
    public static let jumpMatches = 5

    static let matchScore = 2.0
    static let insertionCost = 1.5
    static let skipCost = 0.5
    static let substitutionCost = 2.0

    public let tokens: [String]
    public private(set) var position: Position?

    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Aligns the heard words (oldest first; only the last `tailLength` count) and
    /// updates `position` when the evidence allows. Returns the new position (or the
    /// kept one), nil when nothing has been placed yet.
    @discardableResult
    public mutating func update(heard: [String], tokenWord: [Int]) -> Position? {
        let tail = Array(heard.suffix(Self.tailLength))
        guard !tail.isEmpty, !tokens.isEmpty else { return position }
        let here = position?.token ?? 0
        let low = max(0, here - Self.lookBehind)
        let high = min(tokens.count, here + Self.lookAhead + 1)
        var best = align(tail, in: low..<high)
        if best.map({ $0.matches < 2 }) ?? true {
            // Lost locally: search the whole script, and take it only on strong evidence.
            if let far = align(tail, in: 0..<tokens.count), far.matches >= Self.jumpMatches { best = far }
        }
        guard let found = best, found.matches > 0 else {
            if let kept = position { position = Position(token: kept.token, word: kept.word, confidence: 0, matches: 0) }
            return position
        }
        let confidence = min(1, Double(found.matches) / Double(tail.count))
        if let kept = position, found.token < kept.token, found.matches < Self.backwardMatches {
            // One or two words pointing back are more likely misheard than re-read.
            position = Position(token: kept.token, word: kept.word, confidence: confidence, matches: found.matches)
            return position
        }
        position = Position(token: found.token, word: tokenWord[found.token], confidence: confidence,
                            matches: found.matches)
        return position
    }

    /// The operator moved the position (a jump, a resume): the talent is taken to be
    /// just before `token`, and the search stays local to it from now on.
    public mutating func anchor(token: Int, tokenWord: [Int]) {
        guard tokens.indices.contains(token), tokenWord.indices.contains(token) else { return }
        position = Position(token: token, word: tokenWord[token], confidence: 0, matches: 0)
    }

    /// Evidence needed to move `distance` tokens (negative: back): one word for the next
    /// few, more the further it goes, so a stray word never carries the position far.
    static func matchesNeeded(distance: Int) -> Int {
        switch distance {
        case 0...4: 1
        case 5...20: 2
        case 21...: 3
        default: backwardMatches
        }
    }

    /// Best alignment of `tail` ending at its last word, in script tokens `range`.
    /// Nearer the current position wins between near-equals.
    func align(_ tail: [String], in range: Range<Int>) -> (token: Int, matches: Int)? {
        guard !range.isEmpty else { return nil }
        let width = range.count
        struct Cell { var score = 0.0; var matches = 0; var end = -1 }
        // previous[j]: best alignment of tail[..<i] ending at script token range.lowerBound + j - 1 (j = 0: none).
        var previous = [Cell](repeating: Cell(), count: width + 1)
        for i in 0..<tail.count {
            var row = [Cell](repeating: Cell(), count: width + 1)
            // Heard word i as an insertion before any script token.
            row[0] = Cell(score: max(0, previous[0].score - Self.insertionCost), matches: previous[0].matches, end: previous[0].end)
            for j in 1...width {
                let token = range.lowerBound + j - 1
                let isMatch = tail[i] == tokens[token]
                var cell = previous[j - 1]
                cell.score += isMatch ? Self.matchScore : -Self.substitutionCost
                if isMatch { cell.matches += 1 }
                cell.end = token
                var insertion = previous[j]
                insertion.score -= Self.insertionCost
                var skip = row[j - 1]
                skip.score -= Self.skipCost
                for other in [insertion, skip] where other.score > cell.score { cell = other }
                if cell.score <= 0 { cell = Cell() }
                row[j] = cell
            }
            previous = row
        }
        let here = position?.token ?? -1
        var best: Cell?
        var bestValue = -Double.infinity
        for cell in previous where cell.end >= 0 && cell.matches >= Self.matchesNeeded(distance: cell.end - here) {
            // Nearer wins: a small cost per token of distance, a larger one beyond the next
            // few words (a phrase the script says twice is most likely the nearer one).
            let distance = Double(abs(cell.end - here))
            let value = cell.score - 0.02 * distance - 0.05 * max(0, distance - 4)
            if value > bestValue { best = cell; bestValue = value }
        }
        return best.map { ($0.end, $0.matches) }
    }
}
