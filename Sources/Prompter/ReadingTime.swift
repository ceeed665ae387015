import Foundation
import Markup

/// Word counts and the estimated reading time shown next to each script ("4m 30s").
public enum ReadingTime {
    /// A comfortable on-camera reading pace; rig.toml may set another.
    public static let defaultWordsPerMinute = 150

    /// Counts words: runs of non-whitespace that hold at least one letter or digit, so a
    /// lone dash or bullet is not a word. A word that starts inside a direction of
    /// `markup` is not said, so not counted.
    public static func wordCount(_ text: String, markup: ReadingMarkup = .none) -> Int {
        var count = 0
        var inWord = false
        var wordHasContent = false
        var wordIsSaid = true
        let directions = DirectionCursor(markup)
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if scalar.properties.isWhitespace {
                if inWord, wordHasContent, wordIsSaid { count += 1 }
                inWord = false
                wordHasContent = false
            } else {
                if !inWord { wordIsSaid = !directions.contains(offset) }
                inWord = true
                if !wordHasContent, scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                    wordHasContent = true
                }
            }
        }
        if inWord, wordHasContent, wordIsSaid { count += 1 }
        return count
    }

    /// Whole seconds to read `words` at `wordsPerMinute` (rounded; a rate below 1 reads as 1).
    public static func seconds(words: Int, wordsPerMinute: Int = defaultWordsPerMinute) -> Int {
        let rate = Double(max(1, wordsPerMinute))
        return Int((Double(max(0, words)) * 60 / rate).rounded())
    }

    /// "4m 30s"; minutes keep counting past an hour ("72m 5s"), as in the editor's toolbar.
    public static func format(seconds: Int) -> String {
        let total = max(0, seconds)
        return "\(total / 60)m \(total % 60)s"
    }

    /// The label for a script: `format(seconds(words:wordsPerMinute:))`.
    public static func label(words: Int, wordsPerMinute: Int = defaultWordsPerMinute) -> String {
        format(seconds: seconds(words: words, wordsPerMinute: wordsPerMinute))
    }
}

/// Walks a text's directions in order with the offsets asked about (which only grow):
/// a word count over a long script stays linear.
final class DirectionCursor {
    private let ranges: [Range<Int>]
    private var next = 0

    init(_ markup: ReadingMarkup) { ranges = markup.directions }

    func contains(_ offset: Int) -> Bool {
        while next < ranges.count, ranges[next].upperBound <= offset { next += 1 }
        return next < ranges.count && ranges[next].contains(offset)
    }
}
