/// Pronunciations for words the CMU dictionary does not have (names, coinages, typos in
/// a script), as CMU phones. Deliberately small: longest-match spelling rules over
/// English graphemes, no stress. A wrong guess only costs that word (the aligner
/// tolerates substitutions); a missing word would make the recogniser unable to hear
/// it at all. Digits are spelled out one by one.
public enum LetterToSound {
    /// Longest spellings first; each maps to its usual phones.
    static let rules: [(String, [String])] = [
        ("tion", ["SH", "AH", "N"]), ("sion", ["ZH", "AH", "N"]), ("ough", ["AO"]), ("igh", ["AY"]),
        ("tch", ["CH"]), ("sch", ["S", "K"]), ("ch", ["CH"]), ("sh", ["SH"]), ("th", ["TH"]), ("ph", ["F"]),
        ("wh", ["W"]), ("ck", ["K"]), ("ng", ["NG"]), ("qu", ["K", "W"]), ("ee", ["IY"]), ("ea", ["IY"]),
        ("oo", ["UW"]), ("ou", ["AW"]), ("ow", ["OW"]), ("oi", ["OY"]), ("oy", ["OY"]), ("ai", ["EY"]),
        ("ay", ["EY"]), ("au", ["AO"]), ("aw", ["AO"]), ("ie", ["IY"]), ("ei", ["EY"]), ("er", ["ER"]),
        ("ir", ["ER"]), ("ur", ["ER"]), ("ar", ["AA", "R"]), ("or", ["AO", "R"]),
        ("a", ["AE"]), ("b", ["B"]), ("c", ["K"]), ("d", ["D"]), ("e", ["EH"]), ("f", ["F"]), ("g", ["G"]),
        ("h", ["HH"]), ("i", ["IH"]), ("j", ["JH"]), ("k", ["K"]), ("l", ["L"]), ("m", ["M"]), ("n", ["N"]),
        ("o", ["AA"]), ("p", ["P"]), ("q", ["K"]), ("r", ["R"]), ("s", ["S"]), ("t", ["T"]), ("u", ["AH"]),
        ("v", ["V"]), ("w", ["W"]), ("x", ["K", "S"]), ("y", ["Y"]), ("z", ["Z"]),
    ]
    static let digits = ["Z IH R OW", "W AH N", "T UW", "TH R IY", "F AO R", "F AY V", "S IH K S",
                         "S EH V AH N", "EY T", "N AY N"]

    /// Phones for `word` (lower case); empty when nothing in it can be sounded.
    public static func phones(for word: String) -> [String] {
        var phones: [String] = []
        var rest = Substring(word.lowercased())
        // A final silent e after a consonant ("make"): dropped.
        if rest.count > 2, rest.hasSuffix("e"), let before = rest.dropLast().last, !"aeiou".contains(before) {
            rest = rest.dropLast()
        }
        while let first = rest.first {
            if let digit = first.wholeNumberValue, (0...9).contains(digit) {
                phones += digits[digit].split(separator: " ").map(String.init)
                rest = rest.dropFirst()
                continue
            }
            if let rule = rules.first(where: { rest.hasPrefix($0.0) }) {
                // A doubled consonant is one sound ("ll", "ss").
                if let last = phones.last, rule.1 == [last], rule.0.count == 1 { rest = rest.dropFirst(); continue }
                phones += rule.1
                rest = rest.dropFirst(rule.0.count)
            } else {
                rest = rest.dropFirst()
            }
        }
        return phones
    }
}
