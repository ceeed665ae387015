import Glibc

/// Where a rasterized piece of text has ink, upright: the runs of its rows that hold
/// anything but the background (its lines, mostly), each with the columns between
/// its leftmost and rightmost ink. Found once, when the piece is rasterized, and
/// kept after its pixels go (TextPieceCache), so a few bytes a line, not a flag a row.
///
/// Why: when a script scrolls, the rows where the text is blank before and after
/// (the spacing between lines) and the margins beside it do not change, so a
/// display need not redraw them.
struct PieceInk {
    /// Each run of rows with ink, top to bottom, and the columns its rows use: a
    /// short line (a paragraph's last) changes only its own columns when it scrolls.
    let runs: [InkRun]

    struct InkRun: Equatable {
        var rows: Range<Int>
        var columns: Range<Int>
    }

    /// Reads `canvas` (upright, `background` filled where there is no text).
    init(canvas: Canvas, background: UInt32) {
        var runs: [InkRun] = []
        let width = canvas.width
        if let base = canvas.pixels.baseAddress, width > 0 {
            // A blank row is found by one memcmp against a background row (most rows
            // between lines are blank); only rows with ink are scanned for their edges.
            let blank = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
            blank.initialize(repeating: background, count: width)
            defer { blank.deallocate() }
            for row in 0..<canvas.height {
                let line = base + row * width
                if memcmp(line, blank, width * 4) == 0 { continue }
                var first = 0
                while first < width, line[first] == background { first += 1 }
                guard first < width else { continue }
                var last = width - 1
                while line[last] == background { last -= 1 }
                if let run = runs.last, run.rows.upperBound == row {
                    runs[runs.count - 1] = InkRun(rows: run.rows.lowerBound..<(row + 1),
                                                  columns: min(run.columns.lowerBound, first)..<max(run.columns.upperBound, last + 1))
                } else {
                    runs.append(InkRun(rows: row..<(row + 1), columns: first..<(last + 1)))
                }
            }
        }
        self.runs = runs
    }
}
