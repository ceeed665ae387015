/// Where a frame of scrolling text has ink, in text space: which viewport rows, and
/// the columns any of them use. Two frames' ink say what a scroll changed: outside
/// the rows either has ink in, both show the background (or the band's tint of it),
/// whatever the row phase.
struct ViewportInk {
    var rows: [Bool]
    var columns: Range<Int>

    /// The display rectangles of the rows where `self` or `other` has ink, between
    /// their outermost ink columns, mapped through `transform` into `frame`.
    func changedArea(since other: ViewportInk, frame: PixelRect, transform: TextTransform) -> [PixelRect] {
        let columns = self.columns.isEmpty ? other.columns
            : other.columns.isEmpty ? self.columns
            : min(self.columns.lowerBound, other.columns.lowerBound)..<max(self.columns.upperBound, other.columns.upperBound)
        guard !columns.isEmpty else { return [] }
        let height = min(rows.count, other.rows.count)
        var rects: [PixelRect] = []
        var row = 0
        while row < height {
            guard rows[row] || other.rows[row] else {
                row += 1
                continue
            }
            let start = row
            while row < height, rows[row] || other.rows[row] { row += 1 }
            let text = PixelRect(x: columns.lowerBound, y: start, width: columns.count, height: row - start)
            rects.append(transform.displayRect(ofText: text, viewport: frame.size).offsetBy(dx: frame.x, dy: frame.y))
        }
        return rects
    }
}
