/// Where words start in a block: a word is a UAX #14 segment (text between break
/// opportunities) holding more than spaces. Depends on the text only, never on the
/// style, so word indices map a reading position across layouts.
struct WordStarts {
    private let isStartFlags: [Bool]
    /// Prefix count: `counts[i]` = words starting before scalar i.
    private let counts: [Int32]
    /// `hasWord[i]`: the segment containing scalar i already had a word before it.
    private let hasWord: [Bool]
    private let text: UnsafeBufferPointer<UInt32>

    init(_ text: UnsafeBufferPointer<UInt32>, canBreakAfter: [Bool], segmentHasWord initial: Bool) {
        self.text = text
        var flags = [Bool](repeating: false, count: text.count)
        var counts = [Int32](repeating: 0, count: text.count + 1)
        var hasWord = [Bool](repeating: false, count: text.count + 1)
        var segmentHasWord = initial
        var count: Int32 = 0
        for i in 0..<text.count {
            if i > 0 && canBreakAfter[i - 1] { segmentHasWord = false }
            hasWord[i] = segmentHasWord
            counts[i] = count
            if !segmentHasWord && !LineBreaker.isHangingSpace(text[i]) {
                flags[i] = true
                segmentHasWord = true
                count += 1
            }
        }
        counts[text.count] = count
        hasWord[text.count] = text.isEmpty ? initial
            : (canBreakAfter[text.count - 1] ? false : segmentHasWord)
        isStartFlags = flags
        self.counts = counts
        self.hasWord = hasWord
    }

    func startsBefore(_ i: Int) -> Int { Int(counts[min(max(i, 0), counts.count - 1)]) }
    func isStart(_ i: Int) -> Bool { i < isStartFlags.count && isStartFlags[i] }
    func segmentHasWord(before i: Int) -> Bool { hasWord[min(max(i, 0), hasWord.count - 1)] }

    func firstNonSpace(in range: Range<Int>) -> Int? {
        range.first { $0 < text.count && !LineBreaker.isHangingSpace(text[$0]) }
    }
}
