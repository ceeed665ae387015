/// Where a frame of scrolling text has ink, in text space: which viewport rows, and
/// the columns any of them use. Two frames' ink say what a scroll changed: outside
/// the rows either has ink in, both show the background (or the band's tint of it),
/// whatever the row phase.
struct ViewportInk {
    var rows: [Bool]
    var columns: Range<Int>

    init(rows: [Bool], columns: Range<Int>) {
        self.rows = rows
        self.columns = columns
    }

    /// Which of `count` viewport rows from text row `top` hold ink, and the columns
    /// any of them use, from the ink of the `pieces` covering them; nil when one of
    /// them is not cached (`ink` gives nil).
    init?(top: Int, count: Int, columnWidth: Int, pieces: [TextChunks.Piece],
          ink: (TextPieceCache.Key) -> PieceInk?) {
        var rows = [Bool](repeating: false, count: count)
        var left = columnWidth, right = 0
        for (key, extent) in pieces {
            guard let pieceInk = ink(key) else { return nil }
            for row in max(extent.top, top)..<min(extent.bottom, top + count) where pieceInk.rows[row - extent.top] {
                rows[row - top] = true
            }
            if !pieceInk.columns.isEmpty {
                left = min(left, pieceInk.columns.lowerBound)
                right = max(right, pieceInk.columns.upperBound)
            }
        }
        self.init(rows: rows, columns: left < right ? left..<right : 0..<0)
    }

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
