import Foundation

/// Word counts and the estimated reading time shown next to each script ("4m 30s").
public enum ReadingTime {
    /// A comfortable on-camera reading pace; rig.toml may set another.
    public static let defaultWordsPerMinute = 150

    /// Counts words: runs of non-whitespace that hold at least one letter or digit, so a
    /// lone dash or bullet is not a word.
    public static func wordCount(_ text: String) -> Int {
        var count = 0
        var inWord = false
        var wordHasContent = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                if inWord, wordHasContent { count += 1 }
                inWord = false
                wordHasContent = false
            } else {
                inWord = true
                if !wordHasContent, scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                    wordHasContent = true
                }
            }
        }
        if inWord, wordHasContent { count += 1 }
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
