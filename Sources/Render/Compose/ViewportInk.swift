/// Where a frame of scrolling text has ink, in text space: its runs of viewport rows
/// with ink and the columns each uses. Two frames' ink say what a scroll changed: outside
/// the rows either has ink in, both show the background (or the band's tint of it),
/// whatever the row phase.
struct ViewportInk {
    /// One flag per viewport row, from `runs`: what the scan in `changedArea` reads.
    let rows: [Bool]
    /// The runs of rows with ink and their columns, in viewport rows, top to bottom
    /// (PieceInk.runs, cut to the viewport).
    let runs: [PieceInk.InkRun]

    /// `count` viewport rows with ink in `runs`.
    init(count: Int, runs: [PieceInk.InkRun]) {
        var rows = [Bool](repeating: false, count: count)
        for run in runs { for row in run.rows { rows[row] = true } }
        self.rows = rows
        self.runs = runs
    }

    /// The ink of `count` viewport rows from text row `top`, from the ink of the
    /// `pieces` covering them; nil when one of them was never rasterized (`ink`
    /// gives nil).
    init?(top: Int, count: Int, pieces: [TextChunks.Piece], ink: (TextPieceCache.Key) -> PieceInk?) {
        var runs: [PieceInk.InkRun] = []
        for (key, extent) in pieces {
            guard let pieceInk = ink(key) else { return nil }
            // In viewport rows, cut to the viewport (the pieces come top to bottom).
            let shift = extent.top - top
            for run in pieceInk.runs {
                let first = max(run.rows.lowerBound + shift, 0), end = min(run.rows.upperBound + shift, count)
                guard first < end else { continue }
                runs.append(PieceInk.InkRun(rows: first..<end, columns: run.columns))
            }
        }
        self.init(count: count, runs: runs)
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
            // Every row with ink lies in a run: the guard only keeps the types honest.
            guard let used = inkColumns(of: start..<row, with: other) else { continue }
            let text = PixelRect(x: used.lowerBound, y: start, width: used.count, height: row - start)
            rects.append(transform.displayRect(ofText: text, viewport: viewport).offsetBy(dx: frame.x, dy: frame.y))
        }
        return rects
    }

    /// The outermost columns the runs of `self` and `other` crossing `rows` use; nil
    /// when none crosses them.
    private func inkColumns(of rows: Range<Int>, with other: ViewportInk) -> Range<Int>? {
        var left = Int.max, right = Int.min
        // Each frame's runs in turn, not joined into a new array once per line a frame.
        func widen(by ink: [PieceInk.InkRun]) {
            for run in ink where run.rows.overlaps(rows) {
                left = min(left, run.columns.lowerBound)
                right = max(right, run.columns.upperBound)
            }
        }
        widen(by: runs)
        widen(by: other.runs)
        return left < right ? left..<right : nil
    }
}
