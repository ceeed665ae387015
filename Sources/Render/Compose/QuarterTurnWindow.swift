import CPixman
import Glibc

/// The text viewport of a quarter-turned block, kept in display orientation in
/// ordinary memory, so a scrolling frame copies each display row in one piece.
///
/// Why: with rotation 90/270 the text rows run along the display's rows, so the
/// cached pieces (cut by text rows) are tall narrow columns. Copying a frame from
/// them reads every display row in several short runs, each from a different
/// place; at 4K that access pattern alone costs about 1.6x a frame memcpy, while
/// reading one buffer almost sequentially (a gap of at most `slack` pixels from
/// one row to the next) runs at memcpy speed.
///
/// Each window row holds `viewportRows + slack` text rows starting at its own
/// first text row (`rowTops`). A frame reads `viewportRows` of them at an offset
/// in `0...slack`. While the text scrolls, a rolling share of the rows is moved
/// along (a memmove in the row plus the few newly exposed text rows drawn from
/// the pieces), about `height * step / slack` rows a frame, so no frame redraws
/// the whole window and no row ever runs out.
final class QuarterTurnWindow {
    /// Extra text rows per window row: the runway before a row must move. Kept
    /// small because it is also the gap the frame copy skips between rows.
    static let slack = 64

    let canvas: Canvas
    /// Display width: text rows shown by a frame.
    let viewportRows: Int
    /// True when a text row further down lands further right on the display.
    let forward: Bool

    /// First text row held by each window row (`nil` until drawn).
    private var rowTops: [Int?]
    private var lastViewportTop: Int?
    /// +1 while the text scrolls towards its end, -1 back towards its start.
    private(set) var direction = 1
    /// Next row of the rolling refresh.
    private var cursor = 0

    /// `frameSize` is the display rectangle the text fills.
    init(frameSize: PixelSize, forward: Bool) throws(ImageError) {
        canvas = try Canvas(width: frameSize.width + Self.slack, height: frameSize.height)
        viewportRows = frameSize.width
        self.forward = forward
        rowTops = Array(repeating: nil, count: frameSize.height)
    }

    var frameSize: PixelSize { PixelSize(width: viewportRows, height: canvas.height) }
    var byteCount: Int { canvas.byteCount }

    /// The text row entering the viewport while scrolling (where pieces are needed).
    func leadingRow(viewportTop: Int) -> Int {
        direction > 0 ? viewportTop + viewportRows : viewportTop
    }

    /// Brings every row up to date for `viewportTop`. `fill(rect, top)` draws the
    /// window columns and rows of `rect` as a viewport starting at text row `top`.
    func update(viewportTop top: Int, fill: (PixelRect, Int) -> Void) {
        let slack = Self.slack, height = canvas.height
        let step = lastViewportTop.map { top - $0 } ?? Int.max
        if step > 0 { direction = 1 } else if step < 0 { direction = -1 }
        // A fresh row starts at the end of its runway that the scrolling moves away from.
        let freshTop = direction > 0 ? top : top - slack
        defer { lastViewportTop = top }
        guard step != 0 else {
            refresh(rows: { self.isStale($0, top: top) }, to: freshTop, fill: fill)
            return
        }
        if step == Int.max || abs(step) > slack / 2 {
            // A jump (or the first frame): everything at once, in one draw.
            fill(PixelRect(size: canvas.size), freshTop)
            for row in 0..<height { rowTops[row] = freshTop }
            cursor = 0
            return
        }
        // Rows are moved a quarter before their runway ends, in rolling order, so the
        // work is spread evenly over the frames.
        let count = min(height, (height * abs(step) * 5 + 4 * slack - 1) / (4 * slack))
        let first = cursor
        cursor = (cursor + count) % height
        refresh(rows: { row in
            let rolling = (row - first + height) % height < count
            return rolling || self.isStale(row, top: top)
        }, to: freshTop, fill: fill)
    }

    private func isStale(_ row: Int, top: Int) -> Bool {
        guard let rowTop = rowTops[row] else { return true }
        let lag = top - rowTop
        return lag < 0 || lag > Self.slack
    }

    /// Moves the chosen rows to start at `freshTop`: rows that held the same text
    /// rows go together, keeping what they already hold and drawing only the rest.
    private func refresh(rows chosen: (Int) -> Bool, to freshTop: Int, fill: (PixelRect, Int) -> Void) {
        let height = canvas.height
        var row = 0
        while row < height {
            guard chosen(row) else { row += 1; continue }
            let oldTop = rowTops[row]
            var end = row + 1
            while end < height, chosen(end), rowTops[end] == oldTop { end += 1 }
            move(rows: row..<end, from: oldTop, to: freshTop, fill: fill)
            row = end
        }
    }

    private func move(rows: Range<Int>, from oldTop: Int?, to newTop: Int, fill: (PixelRect, Int) -> Void) {
        let width = canvas.width
        let run = PixelRect(x: 0, y: rows.lowerBound, width: width, height: rows.count)
        defer { for row in rows { rowTops[row] = newTop } }
        guard let oldTop else { return fill(run, newTop) }
        // Window column c holds text row top + c (forward) or top + width - 1 - c, so
        // the new row's column c is the old row's column c + shift.
        let shift = forward ? newTop - oldTop : oldTop - newTop
        guard shift != 0 else { return }
        guard abs(shift) < width, let base = canvas.pixels.baseAddress else { return fill(run, newTop) }
        let kept = width - abs(shift)
        for row in rows {
            let start = base + row * width
            if shift > 0 {
                memmove(start, start + shift, kept * 4)
            } else {
                memmove(start - shift, start, kept * 4)
            }
        }
        let exposed = shift > 0 ? PixelRect(x: kept, y: run.y, width: shift, height: run.height)
                                : PixelRect(x: 0, y: run.y, width: -shift, height: run.height)
        fill(exposed, newTop)
    }

    /// Window column shown at the frame's left edge in `row`.
    @inline(__always)
    private func offset(row: Int, viewportTop: Int) -> Int {
        let lag = viewportTop - (rowTops[row] ?? viewportTop)
        return forward ? lag : Self.slack - lag
    }

    /// Copies display rows `rows` (window rows), display columns `columns` (relative
    /// to the frame's left edge) into `target` at (targetX, targetY + row). With a
    /// `band`, its columns are then overwritten row by row from `band.pixels`, while
    /// the row is still in the cache: the target is written, never read.
    func copy(rows: Range<Int>, columns: Range<Int>, viewportTop: Int, into target: UnsafeMutablePointer<UInt32>,
              targetStride: Int, targetX: Int, targetY: Int, band: BandSource?) {
        guard let base = canvas.pixels.baseAddress, !columns.isEmpty else { return }
        let width = canvas.width, bytes = columns.count * 4
        for row in rows {
            let destination = target + (targetY + row) * targetStride + targetX + columns.lowerBound
            memcpy(destination, base + row * width + offset(row: row, viewportTop: viewportTop) + columns.lowerBound,
                   bytes)
            if let band {
                memcpy(destination + band.columns.lowerBound - columns.lowerBound,
                       band.pixels + (row + band.rowShift) * band.stride + band.firstColumn,
                       band.columns.count * 4)
            }
        }
    }

    /// Copies text rows [top, top + count) of every window row into `strip` (of
    /// `count` columns, the same orientation). False when some row does not hold them.
    func copyTextRows(top: Int, count: Int, into strip: Canvas) -> Bool {
        guard strip.height == canvas.height, strip.width == count,
              let base = canvas.pixels.baseAddress, let destination = strip.pixels.baseAddress
        else { return false }
        let width = canvas.width
        var columns: [Int] = []
        columns.reserveCapacity(canvas.height)
        for row in 0..<canvas.height {
            guard let rowTop = rowTops[row], top >= rowTop, top + count <= rowTop + width else { return false }
            columns.append(forward ? top - rowTop : rowTop + width - top - count)
        }
        for (row, column) in columns.enumerated() {
            memcpy(destination + row * count, base + row * width + column, count * 4)
        }
        return true
    }

    /// Where the band's pixels come from, for `copy`.
    struct BandSource {
        let pixels: UnsafeMutablePointer<UInt32>
        let stride: Int
        /// Display columns (relative to the frame) the band overwrites.
        let columns: Range<Int>
        /// Source column of the first of `columns`.
        let firstColumn: Int
        /// Source row of window row r is r + rowShift.
        let rowShift: Int
    }
}
