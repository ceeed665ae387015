import Glibc

/// The marker band baked into a quarter-turn window's rows (QuarterTurnWindow): the
/// text rows under the band are tinted in place, their plain pixels kept aside in a
/// small ring per row, and each row gives back the text rows that left the band and
/// tints those that entered it. Made by the window for each copy, over its memory:
/// reading the window's stored properties row by row would cost an exclusivity
/// check each time.
struct QuarterTurnBand<Pixel: WindowPixel> {
    let rowTops: UnsafeMutableBufferPointer<Int>
    let bakedTops: UnsafeMutableBufferPointer<Int>
    let pixels: UnsafeMutablePointer<Pixel>
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
    let ring: UnsafeMutablePointer<Pixel>
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
                line[column] = Pixel.tinted(plain, table: table, xByte: xByte)
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
        // Rows baked long ago (a row outside every frame's damage since) may lie
        // wholly beyond the row on either side: then the range is empty.
        let lower = min(max(first, 0), width)
        let clipped = lower..<max(lower, min(first + textRows.count, width))
        return (clipped, clipped.lowerBound - origin)
    }

    @inline(__always)
    func tint(_ textRows: Range<Int>, row: Int) {
        let (range, firstKey) = columns(of: textRows, rowTop: rowTops[row])
        let line = pixels + row * width, slots = ring + row
        var key = firstKey
        for column in range {
            slots[(key & mask) * height] = line[column]
            line[column] = Pixel.tinted(line[column], table: table, xByte: xByte)
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
