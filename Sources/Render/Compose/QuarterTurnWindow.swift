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
    /// small because it is also the gap the frame copy skips between rows (128 and
    /// 256 measured no faster at 1080p: `rig bench --case compose:1920x1080:60:rot90`
    /// at 110, 180 and 250 px/s, two runs each, 2026-12-05).
    static let slack = 64

    /// Frames of at least this many bytes are copied with streaming stores
    /// (`rig_copy_streaming`): at 4K the two frame buffers and the window (100 MB)
    /// are far larger than any cache, so writing the frame through the cache only
    /// pushes out the window the next frame reads. `rig bench --case
    /// compose:3840x2160:60:rot90`, three interleaved runs: medians 1.82–1.95 ms
    /// against 2.49–2.61 ms. At 1080p it gained nothing (0.28–0.31 against
    /// 0.30–0.32 ms) and cost 7 % where each frame reads another phase's window
    /// (`:rot90:110`, 0.77–0.82 against 0.72–0.74 ms), so 1080p and 1440p keep
    /// ordinary copies.
    static let streamingBytes = 16 << 20

    /// Whether this window's frames are copied with streaming stores.
    let streams: Bool

    let canvas: Canvas
    /// Display width: text rows shown by a frame.
    let viewportRows: Int
    /// True when a text row further down lands further right on the display.
    let forward: Bool

    /// First text row held by each window row (`notDrawn` until drawn). Raw memory:
    /// the frame loop reads it once per row, without Swift's exclusivity checks.
    private let rowTops: UnsafeMutableBufferPointer<Int>
    static let notDrawn = Int.min
    private var lastViewportTop: Int?
    /// The viewport top before it: what rows copied in parts were last baked for.
    private var previousViewportTop: Int?
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
    /// Plain pixels of tinted text rows (see QuarterTurnBand.ring).
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
        streams = frameSize.width * frameSize.height * 4 >= Self.streamingBytes
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
        previousViewportTop = lastViewportTop
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
        let bakedBand = self.bakedBand
        for row in rows {
            // Text rows about to be drawn plain must not count as tinted. (Rows copied
            // every frame never hit this: what enters lies beyond the last viewport.)
            if let bakedBand, let bandRows = bakedBand.bakedRows(row), bandRows.overlaps(exposedRows) {
                bakedBand.restore(bandRows, row: row)
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

    /// Copies `areas` of the frame (x: display columns from the frame's left edge,
    /// y: window rows) into `target`, the frame's top-left at (targetX, targetY): row
    /// by row, each row's runs in turn, so a row is read once however many areas
    /// cross it (around the marker's arrows a row is cut in several), with the band
    /// (each row brings its band up to date first).
    func copy(areas: [PixelRect], viewportTop: Int, into target: UnsafeMutablePointer<UInt32>,
              targetStride: Int, targetX: Int, targetY: Int) {
        guard let base = canvas.pixels.baseAddress else { return }
        let width = canvas.width
        let bakedBand = self.bakedBand
        // Rows copied in parts bake when copied next, most of them from the frame
        // before: what they give back and tint is the same for all, worked out once.
        let previous = previousViewportTop
        let catchUp = previous.flatMap { bakedBand?.move(from: $0, to: viewportTop) }
        let stream = streams
        defer { if stream { rig_streaming_done() } }
        for band in Self.bands(of: areas) {
            // Right after a whole row is copied it is baked for the frame expected next,
            // while its pixels are still in the cache. A row copied in parts (a scroll's
            // damage, or around the marker's arrows) may be copied again in this frame,
            // so it bakes first when copied next.
            let whole = band.runs.count == 1 && band.runs[0].count == viewportRows
            let next = whole ? expectedViewportTop : nil
            // The text rows every row gives back and tints for the next frame: the same
            // for all rows baked for this one, so worked out once.
            let move = next.flatMap { bakedBand?.move(from: viewportTop, to: $0) }
            band.runs.withUnsafeBufferPointer { runs in
                for row in band.rows {
                    if let bakedBand, bakedTops[row] != viewportTop {
                        if let catchUp, bakedTops[row] == previous {
                            bakedBand.shift(row: row, catchUp)
                            bakedTops[row] = viewportTop
                        } else {
                            bakedBand.bake(row: row, viewportTop: viewportTop)
                        }
                    }
                    let source = base + row * width + offset(row: row, viewportTop: viewportTop)
                    let destination = target + (targetY + row) * targetStride + targetX
                    for run in runs {
                        if stream {
                            rig_copy_streaming(destination + run.lowerBound, source + run.lowerBound, run.count)
                        } else {
                            memcpy(destination + run.lowerBound, source + run.lowerBound, run.count * 4)
                        }
                    }
                    guard let bakedBand, let next else { continue }
                    if let move {
                        bakedBand.shift(row: row, move)
                        bakedTops[row] = next
                    } else {
                        bakedBand.bake(row: row, viewportTop: next)
                    }
                }
            }
        }
    }

    /// `areas` as bands of rows, each with the column runs crossing all of its rows.
    /// The damage pixman hands out is already banded; any other areas just make
    /// more bands (a row copied twice the same).
    static func bands(of areas: [PixelRect]) -> [(rows: Range<Int>, runs: [Range<Int>])] {
        var bands: [(rows: Range<Int>, runs: [Range<Int>])] = []
        for area in areas.sorted(by: { ($0.y, $0.maxY, $0.x) < ($1.y, $1.maxY, $1.x) }) where !area.isEmpty {
            let rows = area.y..<area.maxY
            if bands.last?.rows == rows {
                bands[bands.count - 1].runs.append(area.x..<area.maxX)
            } else {
                bands.append((rows, [area.x..<area.maxX]))
            }
        }
        return bands
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
        if let bakedBand {
            for row in 0..<canvas.height {
                if let tinted = bakedBand.bakedRows(row) { bakedBand.restore(tinted, row: row) }
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
    private var bakedBand: QuarterTurnBand? {
        guard let band, let ring = saved?.baseAddress, let pixels = canvas.pixels.baseAddress,
              let table = band.tint.table.baseAddress
        else { return nil }
        return QuarterTurnBand(rowTops: rowTops, bakedTops: bakedTops, pixels: pixels, width: canvas.width,
                               height: canvas.height, forward: forward, band: band.rows, table: table,
                               xByte: band.tint.xByte, ring: ring, mask: ringWidth - 1)
    }
}
