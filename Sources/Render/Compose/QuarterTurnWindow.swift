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
///
/// The marker band is baked into the window: the text rows under it are tinted in
/// place (their plain pixels kept aside in a small ring per row), and as each row
/// is copied it gives back the few text rows that left the band and tints the few
/// that entered it. So a frame row is still one copy, the band included, and the
/// target is written once, never read.
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
    /// The viewport top of the next frame if the text keeps its pace.
    private var expectedViewportTop: Int?

    /// The band: viewport rows and their tint.
    private var band: (rows: Range<Int>, tint: BandTint)?
    /// Per row, the viewport top whose band rows the row holds tinted (`notDrawn`
    /// when none).
    private let bakedTops: UnsafeMutableBufferPointer<Int>
    /// Plain pixels of tinted text rows (see Baker.ring).
    private var saved: UnsafeMutableBufferPointer<UInt32>?
    private var ringWidth = 0

    /// The pixels of a window for `frameSize` (its runway included).
    static func byteCount(frameSize: PixelSize) -> Int {
        (frameSize.width + slack) * frameSize.height * 4
    }

    /// `frameSize` is the display rectangle the text fills.
    init(frameSize: PixelSize, forward: Bool) throws(ImageError) {
        canvas = try Canvas(width: frameSize.width + Self.slack, height: frameSize.height)
        viewportRows = frameSize.width
        self.forward = forward
        rowTops = .allocate(capacity: frameSize.height)
        rowTops.initialize(repeating: Self.notDrawn)
        bakedTops = .allocate(capacity: frameSize.height)
        bakedTops.initialize(repeating: Self.notDrawn)
    }

    deinit {
        rowTops.deallocate()
        bakedTops.deallocate()
        saved?.deallocate()
    }

    var frameSize: PixelSize { PixelSize(width: viewportRows, height: canvas.height) }
    var byteCount: Int { canvas.byteCount + (saved?.count ?? 0) * 4 }

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
        expectedViewportTop = step.flatMap { abs($0) <= slack / 2 ? top + $0 : nil }
        // A fresh row starts at the end of its runway that the scrolling moves away from.
        let freshTop = direction > 0 ? top : top - slack
        lastViewportTop = top
        guard let step, abs(step) <= slack / 2 else {
            // A jump (or the first frame): everything at once, in one draw.
            fill(PixelRect(size: canvas.size), freshTop)
            for row in 0..<height { rowTops[row] = freshTop }
            for row in 0..<height { bakedTops[row] = Self.notDrawn }
            cursor = 0
            return
        }
        // Rows move in rolling order just as their runway ends, so the work is spread
        // evenly over the frames; rows the scrolling outran (a speed-up) move too.
        let count = min(height, (height * abs(step) + slack - 1) / slack)
        let first = cursor, last = cursor + count   // rolling rows: [first, last), wrapping
        cursor = last % height
        // (No modulo per row: a division for each of a thousand rows shows up.)
        func chosen(_ row: Int) -> Bool {
            (row >= first && row < last) || row + height < last || isStale(row, top: top)
        }
        var row = 0
        while row < height {
            guard chosen(row) else {
                row += 1
                continue
            }
            let oldTop = rowTops[row]
            var end = row + 1
            while end < height, rowTops[end] == oldTop, chosen(end) { end += 1 }
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
        guard oldTop != Self.notDrawn else {
            for row in rows { bakedTops[row] = Self.notDrawn }
            return fill(run, newTop)
        }
        // Window column c holds text row top + c (forward) or top + width - 1 - c, so
        // the new row's column c is the old row's column c + shift.
        let shift = forward ? newTop - oldTop : oldTop - newTop
        guard shift != 0 else { return }
        guard abs(shift) < width, let base = canvas.pixels.baseAddress else {
            for row in rows { bakedTops[row] = Self.notDrawn }
            return fill(run, newTop)
        }
        let kept = width - abs(shift)
        let exposedColumns = shift > 0 ? kept..<width : 0..<(-shift)
        let exposedStart = textRows(ofColumns: exposedColumns, top: newTop)
        let exposedRows = exposedStart..<(exposedStart + exposedColumns.count)
        let baker = self.baker
        for row in rows {
            // Text rows about to be drawn plain must not count as tinted. (Rows copied
            // every frame never hit this: what enters lies beyond the last viewport.)
            if let baker, let bandRows = baker.bakedRows(row), bandRows.overlaps(exposedRows) {
                baker.restore(bandRows, row: row)
                bakedTops[row] = Self.notDrawn
            }
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
    /// to the frame's left edge) into `target` at (targetX, targetY + row): one copy
    /// per row, the band included (each row brings its band up to date first).
    func copy(rows: Range<Int>, columns: Range<Int>, viewportTop: Int, into target: UnsafeMutablePointer<UInt32>,
              targetStride: Int, targetX: Int, targetY: Int) {
        guard let base = canvas.pixels.baseAddress, !columns.isEmpty else { return }
        let width = canvas.width, bytes = columns.count * 4
        // Right after a whole row is copied it is baked for the frame expected next,
        // while its pixels are still in the cache; only a change of pace (or a row
        // copied in parts, as around the marker's arrows) makes a row bake first.
        let baker = self.baker
        let next = columns.count == viewportRows ? expectedViewportTop : nil
        // The text rows every row gives back and tints for the next frame: the same
        // for all rows baked for this one, so worked out once.
        let move = next.flatMap { baker?.move(from: viewportTop, to: $0) }
        for row in rows {
            if let baker, bakedTops[row] != viewportTop { baker.bake(row: row, viewportTop: viewportTop) }
            memcpy(target + (targetY + row) * targetStride + targetX + columns.lowerBound,
                   base + row * width + offset(row: row, viewportTop: viewportTop) + columns.lowerBound, bytes)
            guard let baker, let next else { continue }
            if let move {
                baker.shift(row: row, move)
                bakedTops[row] = next
            } else {
                baker.bake(row: row, viewportTop: next)
            }
        }
    }

    /// Text rows shown by window columns `columns` of a row starting at text row
    /// `top`: the lowest of them.
    private func textRows(ofColumns columns: Range<Int>, top: Int) -> Int {
        forward ? top + columns.lowerBound : top + canvas.width - columns.upperBound
    }

    // MARK: - The baked band

    /// Sets the band (viewport rows `rows` tinted by `tint`; none when nil). A new
    /// band first gives back every row's old tint; rows tint themselves when copied.
    func setBand(rows: Range<Int>, tint: BandTint?) {
        let wanted = tint.flatMap { rows.isEmpty ? nil : (rows: rows, tint: $0) }
        guard wanted?.rows != band?.rows || wanted?.tint !== band?.tint else { return }
        if let baker {
            for row in 0..<canvas.height {
                if let tinted = baker.bakedRows(row) { baker.restore(tinted, row: row) }
            }
        }
        for row in 0..<canvas.height { bakedTops[row] = Self.notDrawn }
        band = wanted
        guard let wanted, ringWidth < wanted.rows.count + Self.slack else { return }
        saved?.deallocate()
        var width = 64
        while width < wanted.rows.count + Self.slack { width *= 2 }
        ringWidth = width
        saved = .allocate(capacity: width * canvas.height)
    }

    /// What baking needs, read once per copy: reading this class's stored properties
    /// row by row would cost an exclusivity check each time.
    private var baker: Baker? {
        guard let band, let ring = saved?.baseAddress, let pixels = canvas.pixels.baseAddress,
              let table = band.tint.table.baseAddress
        else { return nil }
        return Baker(rowTops: rowTops, bakedTops: bakedTops, pixels: pixels, width: canvas.width,
                     height: canvas.height, forward: forward, band: band.rows, table: table,
                     xByte: band.tint.xByte, ring: ring, mask: ringWidth - 1)
    }

    private struct Baker {
        let rowTops: UnsafeMutableBufferPointer<Int>
        let bakedTops: UnsafeMutableBufferPointer<Int>
        let pixels: UnsafeMutablePointer<UInt32>
        let width: Int
        let height: Int
        let forward: Bool
        let band: Range<Int>
        /// BandTint's tables (kept alive by the window's band), without reference counting.
        let table: UnsafePointer<UInt8>
        let xByte: UInt32
        /// Plain pixels of tinted text rows: window row r, text row t at
        /// (key(t) & mask) * height + r, where key(t) = t (forward) or -1 - t (so a
        /// run of columns is a run of keys). A frame's few entering and leaving text
        /// rows are then read and written as sequential runs down the rows.
        let ring: UnsafeMutablePointer<UInt32>
        let mask: Int

        /// The text rows `row` holds tinted, nil when none.
        @inline(__always)
        func bakedRows(_ row: Int) -> Range<Int>? {
            let top = bakedTops[row]
            guard top != QuarterTurnWindow.notDrawn else { return nil }
            return (top + band.lowerBound)..<(top + band.upperBound)
        }

        /// The text rows leaving and entering the band from viewport top `old` to
        /// `new`, as ring keys of their first columns and a count, when the rows
        /// staying keep their tint (nil otherwise).
        func move(from old: Int, to new: Int) -> Move? {
            let step = new - old
            guard step != 0, abs(step) < band.count, band.count + abs(step) <= mask + 1 else { return nil }
            let giveBack = step > 0 ? (old + band.lowerBound)..<(new + band.lowerBound)
                                    : (new + band.upperBound)..<(old + band.upperBound)
            let tint = step > 0 ? (old + band.upperBound)..<(new + band.upperBound)
                                : (new + band.lowerBound)..<(old + band.lowerBound)
            return Move(giveBackKey: firstKey(of: giveBack), tintKey: firstKey(of: tint), count: abs(step))
        }

        struct Move {
            let giveBackKey: Int
            let tintKey: Int
            let count: Int
        }

        /// Ring key of the lowest column holding text rows `textRows`.
        @inline(__always)
        private func firstKey(of textRows: Range<Int>) -> Int {
            forward ? textRows.lowerBound : -textRows.upperBound
        }

        /// `move` for one row: the hot loop of a scrolling frame, kept to plain
        /// arithmetic on the row's pixels and ring slots.
        @inline(__always)
        func shift(row: Int, _ move: Move) {
            let rowTop = rowTops[row]
            let origin = forward ? 0 &- rowTop : rowTop &+ width   // column = key + origin
            let line = pixels + row &* width, slots = ring + row
            var key = move.giveBackKey
            for _ in 0..<move.count {
                let column = key &+ origin
                if column >= 0 && column < width { line[column] = slots[(key & mask) &* height] }
                key &+= 1
            }
            key = move.tintKey
            for _ in 0..<move.count {
                let column = key &+ origin
                if column >= 0 && column < width {
                    let plain = line[column]
                    slots[(key & mask) &* height] = plain
                    line[column] = BandTint.apply(plain, table: table, xByte: xByte)
                }
                key &+= 1
            }
        }

        /// Gives back the text rows of `row` that left the band since it was last
        /// baked, and tints those that entered it.
        func bake(row: Int, viewportTop top: Int) {
            defer { bakedTops[row] = top }
            let wanted = (top + band.lowerBound)..<(top + band.upperBound)
            guard let old = bakedRows(row) else { return tint(wanted, row: row) }
            // Rows staying under the band keep their tint only while their plain
            // pixels cannot be overwritten in the ring.
            let span = max(old.upperBound, wanted.upperBound) - min(old.lowerBound, wanted.lowerBound)
            guard span <= mask + 1 else {
                restore(old, row: row)
                return tint(wanted, row: row)
            }
            if old.lowerBound < wanted.lowerBound {
                restore(old.lowerBound..<min(old.upperBound, wanted.lowerBound), row: row)
                tint(max(old.upperBound, wanted.lowerBound)..<wanted.upperBound, row: row)
            } else {
                restore(max(old.lowerBound, wanted.upperBound)..<old.upperBound, row: row)
                tint(wanted.lowerBound..<min(wanted.upperBound, old.lowerBound), row: row)
            }
        }

        /// The columns of `row` (starting at text row `rowTop`) holding `textRows`,
        /// clipped to the row, and the ring key of the first.
        @inline(__always)
        private func columns(of textRows: Range<Int>, rowTop: Int) -> (range: Range<Int>, key: Int) {
            // column = key + origin
            let origin = forward ? -rowTop : rowTop + width
            let first = (forward ? textRows.lowerBound : -textRows.upperBound) + origin
            let clipped = max(first, 0)..<max(0, min(first + textRows.count, width))
            return (clipped, clipped.lowerBound - origin)
        }

        @inline(__always)
        func tint(_ textRows: Range<Int>, row: Int) {
            let (range, firstKey) = columns(of: textRows, rowTop: rowTops[row])
            let line = pixels + row * width, slots = ring + row
            var key = firstKey
            for column in range {
                slots[(key & mask) * height] = line[column]
                line[column] = BandTint.apply(line[column], table: table, xByte: xByte)
                key += 1
            }
        }

        @inline(__always)
        func restore(_ textRows: Range<Int>, row: Int) {
            // A text row the row no longer holds left with its tint: nothing to give back.
            let (range, firstKey) = columns(of: textRows, rowTop: rowTops[row])
            let line = pixels + row * width, slots = ring + row
            var key = firstKey
            for column in range {
                line[column] = slots[(key & mask) * height]
                key += 1
            }
        }
    }
}
