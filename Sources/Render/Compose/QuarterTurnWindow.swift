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
/// The window holds the text plain; the marker band is blended in as each row is
/// copied (its display columns through BandTint's arithmetic, sixteen gray pixels a
/// step), so the target is written once, never read. (The band was once baked into
/// the windows, each row giving back and tinting the text rows that left and entered
/// it: with a window per row phase, each rolled far between its frames, that cost a
/// third of a 1080p quarter-turn frame at 110 px/s.)
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

    /// The window's pixels: XRGB8888, or gray levels when the block's pieces are gray
    /// (a quarter of the bytes to hold, roll and read).
    let pixels: TextPixels
    /// Window width: text rows a row holds (`viewportRows + slack`).
    let width: Int
    /// Window height: one row per display row of the frame.
    let height: Int
    /// Display width: text rows shown by a frame.
    let viewportRows: Int
    /// True when a text row further down lands further right on the display.
    let forward: Bool

    /// First text row held by each window row (`notDrawn` until drawn). Raw memory:
    /// the frame loop reads it once per row, without Swift's exclusivity checks.
    private let rowTops: UnsafeMutableBufferPointer<Int>
    static let notDrawn = Int.min
    private var lastViewportTop: Int?
    /// +1 while the text scrolls towards its end, -1 back towards its start.
    private(set) var direction = 1
    /// Next row of the rolling refresh.
    private var cursor = 0

    /// The pixels of a window for `frameSize` (its runway included).
    static func byteCount(frameSize: PixelSize, bytesPerPixel: Int = 4) -> Int {
        (frameSize.width + slack) * frameSize.height * bytesPerPixel
    }

    /// `frameSize` is the display rectangle the text fills; `gray` keeps its pixels
    /// as gray levels.
    init(frameSize: PixelSize, forward: Bool, gray: Bool = false) throws(ImageError) {
        let size = PixelSize(width: frameSize.width + Self.slack, height: frameSize.height)
        pixels = gray ? .gray(try GrayCanvas(size: size)) : .color(try Canvas(size: size))
        width = size.width
        height = size.height
        viewportRows = frameSize.width
        self.forward = forward
        streams = frameSize.width * frameSize.height * 4 >= Self.streamingBytes
        rowTops = .allocate(capacity: frameSize.height)
        rowTops.initialize(repeating: Self.notDrawn)
    }

    deinit {
        rowTops.deallocate()
    }

    var frameSize: PixelSize { PixelSize(width: viewportRows, height: height) }
    var byteCount: Int { pixels.byteCount }
    var isGray: Bool { if case .gray = pixels { true } else { false } }

    /// Whether its rows hold text yet (a window is made empty and filled whole by
    /// its first update).
    var isFilled: Bool { lastViewportTop != nil }

    /// The text row entering the viewport while scrolling (where pieces are needed).
    func leadingRow(viewportTop: Int) -> Int {
        direction > 0 ? viewportTop + viewportRows : viewportTop
    }

    /// Brings every row up to date for `viewportTop`. `fill(rect, top)` draws the
    /// window columns and rows of `rect` as a viewport starting at text row `top`.
    func update(viewportTop top: Int, fill: (PixelRect, Int) -> Void) {
        // Every row is valid for the last top (the compositor draws a frame in several areas).
        guard top != lastViewportTop else { return }
        let slack = Self.slack, height = self.height
        let step = lastViewportTop.map { top - $0 }
        if let step { direction = step > 0 ? 1 : -1 }
        // A fresh row starts at the end of its runway that the scrolling moves away from.
        let freshTop = direction > 0 ? top : top - slack
        lastViewportTop = top
        guard let step, abs(step) <= slack / 2 else {
            // A jump (or the first frame): everything at once, in one draw.
            fill(PixelRect(size: pixels.size), freshTop)
            for row in 0..<height { rowTops[row] = freshTop }
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
        let run = PixelRect(x: 0, y: rows.lowerBound, width: width, height: rows.count)
        defer { for row in rows { rowTops[row] = newTop } }
        guard oldTop != Self.notDrawn else { return fill(run, newTop) }
        // Window column c holds text row top + c (forward) or top + width - 1 - c, so
        // the new row's column c is the old row's column c + shift.
        let shift = forward ? newTop - oldTop : oldTop - newTop
        guard shift != 0 else { return }
        guard abs(shift) < width else { return fill(run, newTop) }
        let kept = width - abs(shift)
        switch pixels {
        case .color(let canvas): slide(canvas.pixels, rows: rows, by: shift)
        case .gray(let gray): slide(gray.pixels, rows: rows, by: shift)
        }
        let exposed = shift > 0 ? PixelRect(x: kept, y: run.y, width: shift, height: run.height)
                                : PixelRect(x: 0, y: run.y, width: -shift, height: run.height)
        fill(exposed, newTop)
    }

    /// Moves `rows` along by `shift` columns.
    private func slide<Pixel: WindowPixel>(_ memory: UnsafeMutableBufferPointer<Pixel>, rows: Range<Int>,
                                           by shift: Int) {
        guard let base = memory.baseAddress else { return }
        let kept = width - abs(shift)
        for row in rows {
            let start = base + row * width
            if shift > 0 {
                memmove(start, start + shift, kept * MemoryLayout<Pixel>.stride)
            } else {
                memmove(start - shift, start, kept * MemoryLayout<Pixel>.stride)
            }
        }
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
    /// cross it (around the marker's arrows a row is cut in several). The marker band
    /// (`band`: viewport rows and their tint) is blended into its display columns.
    func copy(areas: [PixelRect], viewportTop: Int, band: (rows: Range<Int>, tint: BandTint)?,
              into target: UnsafeMutablePointer<UInt32>, targetStride: Int, targetX: Int, targetY: Int) {
        // Viewport row r shows in display column r, or viewportRows - 1 - r where the
        // text runs right to left.
        let bandColumns = band.map {
            (forward ? $0.rows : (viewportRows - $0.rows.upperBound)..<(viewportRows - $0.rows.lowerBound))
                .clamped(to: 0..<viewportRows)
        } ?? 0..<0
        switch pixels {
        case .color(let canvas):
            copy(from: canvas.pixels, areas: areas, viewportTop: viewportTop, tint: band?.tint,
                 bandColumns: bandColumns, into: target, targetStride: targetStride, targetX: targetX, targetY: targetY)
        case .gray(let gray):
            copy(from: gray.pixels, areas: areas, viewportTop: viewportTop, tint: band?.tint,
                 bandColumns: bandColumns, into: target, targetStride: targetStride, targetX: targetX, targetY: targetY)
        }
    }

    private func copy<Pixel: WindowPixel>(from memory: UnsafeMutableBufferPointer<Pixel>, areas: [PixelRect],
                                          viewportTop: Int, tint: BandTint?, bandColumns: Range<Int>,
                                          into target: UnsafeMutablePointer<UInt32>, targetStride: Int,
                                          targetX: Int, targetY: Int) {
        guard let base = memory.baseAddress else { return }
        let width = self.width
        let stream = streams
        defer { if stream { rig_streaming_done() } }
        for stripe in Self.stripes(of: areas) {
            stripe.runs.withUnsafeBufferPointer { runs in
                for row in stripe.rows {
                    let source = base + row * width + offset(row: row, viewportTop: viewportTop)
                    let destination = target + (targetY + row) * targetStride + targetX
                    // A run of plain pixels (none when empty: a call per row shows).
                    @inline(__always) func plain(_ columns: Range<Int>, streaming: Bool) {
                        guard !columns.isEmpty else { return }
                        Pixel.copy(source + columns.lowerBound, to: destination + columns.lowerBound,
                                   count: columns.count, streaming: streaming)
                    }
                    for run in runs {
                        let band = run.clamped(to: bandColumns)
                        guard let tint, !band.isEmpty else {
                            plain(run, streaming: stream)
                            continue
                        }
                        // Plain up to the band, the band, plain after it. Streamed, the
                        // band's part is widened to the whole cache lines it touches and
                        // written with ordinary stores, so no line gets both kinds:
                        // where they met, a 4K quarter turn took half a millisecond more
                        // (`rig bench --case compose:3840x2160:20:flip+rot90`, 1.59-1.63
                        // against 1.19-1.26 ms, three interleaved runs).
                        let part = stream ? Self.wholeLines(band, of: destination, within: run) : band
                        plain(run.lowerBound..<part.lowerBound, streaming: stream)
                        plain(part.lowerBound..<band.lowerBound, streaming: false)
                        Pixel.copy(source + band.lowerBound, underBand: tint, to: destination + band.lowerBound,
                                   count: band.count)
                        plain(band.upperBound..<part.upperBound, streaming: false)
                        plain(part.upperBound..<run.upperBound, streaming: stream)
                    }
                }
            }
        }
    }

    /// Pixels in a 64-byte cache line.
    static let lineLength = 16

    /// `columns` of the row at `row` widened to the cache lines of the frame they
    /// touch, within `run`.
    @inline(__always)
    static func wholeLines(_ columns: Range<Int>, of row: UnsafeMutablePointer<UInt32>,
                           within run: Range<Int>) -> Range<Int> {
        // Pixels of column 0 past the start of its line.
        let lead = Int(UInt(bitPattern: row) / 4 % UInt(lineLength))
        let first = columns.lowerBound - (lead + columns.lowerBound) % lineLength
        let end = columns.upperBound + (lineLength - (lead + columns.upperBound) % lineLength) % lineLength
        return max(first, run.lowerBound)..<min(end, run.upperBound)
    }

    /// `areas` as stripes of rows, each with the column runs crossing all of its
    /// rows. The damage pixman hands out is already in stripes; any other areas just
    /// make more of them (a row copied twice the same).
    static func stripes(of areas: [PixelRect]) -> [(rows: Range<Int>, runs: [Range<Int>])] {
        var stripes: [(rows: Range<Int>, runs: [Range<Int>])] = []
        for area in areas.sorted(by: { ($0.y, $0.maxY, $0.x) < ($1.y, $1.maxY, $1.x) }) where !area.isEmpty {
            let rows = area.y..<area.maxY
            if stripes.last?.rows == rows {
                stripes[stripes.count - 1].runs.append(area.x..<area.maxX)
            } else {
                stripes.append((rows, [area.x..<area.maxX]))
            }
        }
        return stripes
    }
}
