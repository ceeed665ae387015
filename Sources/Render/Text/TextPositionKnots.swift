/// The lines of a layout where its text position (`TextLayout.textPosition(atY:)`) is
/// exact: the first line, every paragraph's first line (a line that does not start where
/// the one before ended), and within a paragraph every `lines`-th line. Kept as the
/// layout grows, in order.
struct TextPositionKnots {
    /// Lines between knots within a paragraph.
    static let lines = 8

    private(set) var lines: [Int] = []
    private var scanned = 0

    /// Takes in the lines laid out since the last call.
    mutating func extend(over laidOut: [LaidOutLine]) {
        while scanned < laidOut.count {
            let index = scanned
            let startsParagraph = index == 0 || laidOut[index - 1].textRange.upperBound < laidOut[index].textRange.lowerBound
            if startsParagraph || index - (lines.last ?? 0) >= Self.lines { lines.append(index) }
            scanned += 1
        }
    }

    /// The knot at or before `line` and the next one (or `lineCount`, past the last).
    func block(around line: Int, lineCount: Int) -> (start: Int, next: Int) {
        var low = 0, high = lines.count
        while low < high {
            let mid = (low + high) / 2
            if lines[mid] <= line { low = mid + 1 } else { high = mid }
        }
        let start = lines[max(low - 1, 0)]
        return (start, low < lines.count ? lines[low] : lineCount)
    }
}
