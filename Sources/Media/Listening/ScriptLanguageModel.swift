import Foundation

/// A bigram language model written from the script's own words, as ARPA text for
/// pocketsphinx (which has no model builder). The recogniser then only expects the
/// words of the script, mostly in the script's order: that is what makes synthesized
/// and real speech come back right (MEDIA.md: 46 of 50 words with it, nonsense with
/// the generic model).
///
/// Katz-style with a fixed discount: a seen bigram keeps `1 - discount` of its
/// maximum-likelihood share, the rest backs off to the unigrams (so a talent who starts
/// mid-sentence or skips still decodes). Backoff weights are computed so each history's
/// distribution sums to one.
public struct ScriptLanguageModel: Sendable, Equatable {
    public static let discount = 0.3
    public let vocabulary: [String]
    public let arpa: String

    /// `sentences`: the script's words (lower case, as the dictionary spells them) in
    /// reading order, split at sentence ends.
    public init(sentences: [[String]]) throws(ListeningError) {
        let kept = sentences.filter { !$0.isEmpty }
        guard !kept.isEmpty else { throw .noWords }
        var unigram: [String: Int] = ["</s>": 0]
        var bigram: [String: [String: Int]] = [:]
        for sentence in kept {
            let tokens = ["<s>"] + sentence + ["</s>"]
            for token in tokens.dropFirst() { unigram[token, default: 0] += 1 }
            for (a, b) in zip(tokens, tokens.dropFirst()) { bigram[a, default: [:]][b, default: 0] += 1 }
        }
        let total = Double(unigram.values.reduce(0, +))
        let words = unigram.keys.sorted()
        vocabulary = words.filter { $0 != "</s>" }
        func p1(_ w: String) -> Double { Double(unigram[w] ?? 0) / total }

        var lines = ["\\data\\", "ngram 1=\(words.count + 1)",
                     "ngram 2=\(bigram.values.reduce(0) { $0 + $1.count })", "", "\\1-grams:"]
        func backoff(_ history: String) -> Double {
            guard let next = bigram[history] else { return 1 }
            let unseen = 1 - next.keys.reduce(0.0) { $0 + p1($1) }
            return unseen > 1e-9 ? Self.discount / unseen : 1e-9
        }
        func log10s(_ x: Double) -> String { String(format: "%.4f", log10(max(x, 1e-99))) }
        // <s> is a history only: ARPA's convention is probability -99 for it.
        lines.append("-99.0000 <s> \(log10s(backoff("<s>")))")
        for w in words {
            lines.append(w == "</s>" ? "\(log10s(p1(w))) </s>" : "\(log10s(p1(w))) \(w) \(log10s(backoff(w)))")
        }
        lines += ["", "\\2-grams:"]
        for history in bigram.keys.sorted() {
            guard let next = bigram[history] else { continue }
            let count = Double(next.values.reduce(0, +))
            for (w, c) in next.sorted(by: { $0.key < $1.key }) {
                lines.append("\(log10s((1 - Self.discount) * Double(c) / count)) \(history) \(w)")
            }
        }
        lines += ["", "\\end\\", ""]
        arpa = lines.joined(separator: "\n")
    }
}
