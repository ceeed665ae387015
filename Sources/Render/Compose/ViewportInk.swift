/// Where a frame of scrolling text has ink, in text space: which viewport rows, and
/// the columns any of them use. Two frames' ink say what a scroll changed: outside
/// the rows either has ink in, both show the background (or the band's tint of it),
/// whatever the row phase.
struct ViewportInk {
    var rows: [Bool]
    var columns: Range<Int>
    /// The runs of rows with ink and their columns, in viewport rows, top to bottom
    /// (PieceInk.runs, cut to the viewport).
    var runs: [PieceInk.InkRun]

    /// Rows and columns alone: every run of rows with ink uses all of `columns`.
    init(rows: [Bool], columns: Range<Int>) {
        var runs: [PieceInk.InkRun] = []
        for (row, inked) in rows.enumerated() where inked {
            if let run = runs.last, run.rows.upperBound == row {
                runs[runs.count - 1].rows = run.rows.lowerBound..<(row + 1)
            } else {
                runs.append(PieceInk.InkRun(rows: row..<(row + 1), columns: columns))
            }
        }
        self.init(rows: rows, columns: columns, runs: runs)
    }

    init(rows: [Bool], columns: Range<Int>, runs: [PieceInk.InkRun]) {
        self.rows = rows
        self.columns = columns
        self.runs = runs
    }

    /// Which of `count` viewport rows from text row `top` hold ink, and the columns
    /// any of them use, from the ink of the `pieces` covering them; nil when one of
    /// them is not cached (`ink` gives nil).
    init?(top: Int, count: Int, columnWidth: Int, pieces: [TextChunks.Piece],
          ink: (TextPieceCache.Key) -> PieceInk?) {
        var rows = [Bool](repeating: false, count: count)
        var runs: [PieceInk.InkRun] = []
        var left = columnWidth, right = 0
        for (key, extent) in pieces {
            guard let pieceInk = ink(key) else { return nil }
            // In viewport rows, cut to the viewport (the pieces come top to bottom).
            let shift = extent.top - top
            for run in pieceInk.runs {
                let first = max(run.rows.lowerBound + shift, 0), end = min(run.rows.upperBound + shift, count)
                guard first < end else { continue }
                for row in first..<end { rows[row] = true }
                runs.append(PieceInk.InkRun(rows: first..<end, columns: run.columns))
                left = min(left, run.columns.lowerBound)
                right = max(right, run.columns.upperBound)
            }
        }
        self.init(rows: rows, columns: left < right ? left..<right : 0..<0, runs: runs)
    }

    /// The display rectangles of the rows where `self` or `other` has ink, each run of
    /// them between the outermost columns its rows use in either, mapped through
    /// `transform` into `frame`.
    ///
    /// Turned a quarter, one rectangle from the first row with ink to the last: the
    /// display's rows are copied from a window (QuarterTurnWindow) with the text's
    /// lines side by side along them, and one long copy from the first line to the
    /// last costs less than a short one per line, which misses the cache as often and
    /// is too short for memcpy's long-copy path (1080p, 60 px, `rig bench --case
    /// compose:1920x1080:60:rot90`, five interleaved runs: medians 0.28–0.37 ms,
    /// against 0.31–0.47 ms a copy per line and 0.42–0.54 ms every row whole; at
    /// 110 px/s, each frame reading another phase's window from memory, 0.70–0.79,
    /// 0.91–0.98 and 0.69–0.79 ms). Only the display rows beside the text, its
    /// margins, are left out.
    func changedArea(since other: ViewportInk, frame: PixelRect, transform: TextTransform) -> [PixelRect] {
        let columns = self.columns.isEmpty ? other.columns
            : other.columns.isEmpty ? self.columns
            : min(self.columns.lowerBound, other.columns.lowerBound)..<max(self.columns.upperBound, other.columns.upperBound)
        guard !columns.isEmpty else { return [] }
        let viewport = transform.textSize(forDisplay: frame.size)
        let height = min(rows.count, other.rows.count)
        let joiningGaps = transform.swapsAxes ? height : 0
        var rects: [PixelRect] = []
        var row = 0
        while row < height {
            guard rows[row] || other.rows[row] else {
                row += 1
                continue
            }
            let start = row
            while row < height, rows[row] || other.rows[row] { row += 1 }
            // A gap short enough is taken in, as are the runs after it.
            while let next = (row..<min(height, row + joiningGaps)).first(where: { rows[$0] || other.rows[$0] }) {
                row = next
                while row < height, rows[row] || other.rows[row] { row += 1 }
            }
            let used = inkColumns(of: start..<row, with: other) ?? columns
            let text = PixelRect(x: used.lowerBound, y: start, width: used.count, height: row - start)
            rects.append(transform.displayRect(ofText: text, viewport: viewport).offsetBy(dx: frame.x, dy: frame.y))
        }
        return rects
    }

    /// The outermost columns the runs of `self` and `other` crossing `rows` use; nil
    /// when none crosses them.
    private func inkColumns(of rows: Range<Int>, with other: ViewportInk) -> Range<Int>? {
        var left = Int.max, right = Int.min
        for run in runs + other.runs where run.rows.overlaps(rows) {
            left = min(left, run.columns.lowerBound)
            right = max(right, run.columns.upperBound)
        }
        return left < right ? left..<right : nil
    }
}
