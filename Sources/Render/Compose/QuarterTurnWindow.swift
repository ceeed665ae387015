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

    /// First text row held by each window row (`notDrawn` until drawn). Raw memory:
    /// the frame loop reads it once per row, without Swift's exclusivity checks.
    private let rowTops: UnsafeMutableBufferPointer<Int>
    private static let notDrawn = Int.min
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
        rowTops = .allocate(capacity: frameSize.height)
        rowTops.initialize(repeating: Self.notDrawn)
    }

    deinit {
        rowTops.deallocate()
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
        // Every row is valid for the last top (the compositor draws a frame in several areas).
        guard top != lastViewportTop else { return }
        let slack = Self.slack, height = canvas.height
        let step = lastViewportTop.map { top - $0 }
        if let step { direction = step > 0 ? 1 : -1 }
        // A fresh row starts at the end of its runway that the scrolling moves away from.
        let freshTop = direction > 0 ? top : top - slack
        lastViewportTop = top
        guard let step, abs(step) <= slack / 2 else {
            // A jump (or the first frame): everything at once, in one draw.
            fill(PixelRect(size: canvas.size), freshTop)
            for row in 0..<height { rowTops[row] = freshTop }
            cursor = 0
            return
        }
        // Rows move in rolling order just as their runway ends, so the work is spread
        // evenly over the frames; rows the scrolling outran (a speed-up) move too.
        let count = min(height, (height * abs(step) + slack - 1) / slack)
        let first = cursor
        cursor = (cursor + count) % height
        var row = 0
        while row < height {
            guard (row - first + height) % height < count || isStale(row, top: top) else {
                row += 1
                continue
            }
            let oldTop = rowTops[row]
            var end = row + 1
            while end < height, rowTops[end] == oldTop,
                  (end - first + height) % height < count || isStale(end, top: top) {
                end += 1
            }
            move(rows: row..<end, from: oldTop, to: freshTop, fill: fill)
            row = end
        }
    }

    @inline(__always)
    private func isStale(_ row: Int, top: Int) -> Bool {
        let rowTop = rowTops[row]
        guard rowTop != Self.notDrawn else { return true }
        let lag = top - rowTop
        return lag < 0 || lag > Self.slack
    }

    private func move(rows: Range<Int>, from oldTop: Int, to newTop: Int, fill: (PixelRect, Int) -> Void) {
        let width = canvas.width
        let run = PixelRect(x: 0, y: rows.lowerBound, width: width, height: rows.count)
        defer { for row in rows { rowTops[row] = newTop } }
        guard oldTop != Self.notDrawn else { return fill(run, newTop) }
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
    func offset(row: Int, viewportTop: Int) -> Int {
        let lag = viewportTop - rowTops[row]
        return forward ? lag : Self.slack - lag
    }

    /// Copies display rows `rows` (window rows), display columns `columns` (relative
    /// to the frame's left edge) into `target` at (targetX, targetY + row). With a
    /// `band`, its columns are then overwritten from the band's own window, row by
    /// row while the row is still in the cache: the target is written, never read.
    func copy(rows: Range<Int>, columns: Range<Int>, viewportTop: Int, into target: UnsafeMutablePointer<UInt32>,
              targetStride: Int, targetX: Int, targetY: Int, band: Band?) {
        guard let base = canvas.pixels.baseAddress, !columns.isEmpty else { return }
        let width = canvas.width, bytes = columns.count * 4
        let bandBase = band?.window.canvas.pixels.baseAddress
        let bandWidth = band?.window.canvas.width ?? 0
        for row in rows {
            let destination = target + (targetY + row) * targetStride + targetX + columns.lowerBound
            memcpy(destination, base + row * width + offset(row: row, viewportTop: viewportTop) + columns.lowerBound,
                   bytes)
            if let band, let bandBase {
                memcpy(destination + band.columns.lowerBound - columns.lowerBound,
                       bandBase + row * bandWidth + band.window.offset(row: row, viewportTop: band.viewportTop)
                           + band.firstColumn,
                       band.columns.count * 4)
            }
        }
    }

    /// Copies text rows [top, top + count) of window rows `rows` into the same rows
    /// of `destination` (same orientation), at column `column`. False when some row
    /// does not hold them (nothing is then promised about what was copied).
    func copyTextRows(_ rows: Range<Int>, top: Int, count: Int, into destination: Canvas, column: Int) -> Bool {
        guard destination.height == canvas.height, column >= 0, column + count <= destination.width,
              let base = canvas.pixels.baseAddress, let target = destination.pixels.baseAddress
        else { return false }
        let width = canvas.width, targetWidth = destination.width
        for row in rows {
            let rowTop = rowTops[row]
            guard rowTop != Self.notDrawn, top >= rowTop, top + count <= rowTop + width else { return false }
            let source = forward ? top - rowTop : rowTop + width - top - count
            memcpy(target + row * targetWidth + column, base + row * width + source, count * 4)
        }
        return true
    }

    /// Text rows shown by window columns `columns` of a window whose rows start at
    /// text row `top` (lowest first).
    func textRows(ofColumns columns: Range<Int>, top: Int) -> Int {
        forward ? top + columns.lowerBound : top + canvas.width - columns.upperBound
    }

    /// The band written over a frame's rows, from its own window.
    struct Band {
        let window: QuarterTurnWindow
        /// The band window's viewport top (the first text row under the band).
        let viewportTop: Int
        /// Display columns (relative to the frame) the band overwrites.
        let columns: Range<Int>
        /// Column of the band window's viewport that the first of `columns` shows.
        let firstColumn: Int
    }
}
