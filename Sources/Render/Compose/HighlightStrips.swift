/// The text rows under the marker band, blended towards the band colour once and
/// kept, so a frame copies the band as it copies the rest of the text: one strip per
/// row phase shown lately. A strip reaches two band heights past the band, so it is
/// made again (ahead, in idle time, or by a frame that outruns it) about once per two
/// band heights of scrolling.
final class HighlightStrips {
    /// Rows [top, top + rows) of the text, tinted, in final orientation.
    struct Strip {
        let canvas: Canvas
        let top: Int
        let rows: Int
        let color: Color
        let rowFraction: Int
    }

    /// Draws text rows [top, top + rows) at a row phase, plain, into a new canvas in
    /// final orientation (the block's own pieces).
    typealias PlainRows = (_ top: Int, _ rows: Int, _ rowFraction: Int) -> Canvas?

    private var strips: [Int: Strip] = [:]
    /// The band of the frame drawn last: its text rows, colour and row phase.
    private var last: (rows: (top: Int, bottom: Int), color: Color, rowFraction: Int)?

    var byteCount: Int { strips.values.reduce(0) { $0 + $1.canvas.byteCount } }

    func removeAll() { strips = [:] }

    /// The strip covering text rows `rows` at `rowFraction`, made if none does.
    func strip(covering rows: (top: Int, bottom: Int), color: Color, rowFraction: Int,
               plain: PlainRows) -> Strip? {
        last = (rows, color, rowFraction)
        if let strip = strips[rowFraction], strip.color == color, rows.top >= strip.top,
           rows.bottom <= strip.top + strip.rows {
            return strip
        }
        return make(top: rows.top, bandRows: rows.bottom - rows.top, color: color, rowFraction: rowFraction, plain: plain)
    }

    /// In idle time: a fresh strip for a band about to run off its own. True when one was made.
    func prepareAhead(plain: PlainRows) -> Bool {
        guard let last, let current = strips[last.rowFraction], last.color == current.color,
              last.rows.bottom + (last.rows.bottom - last.rows.top) > current.top + current.rows
        else { return false }
        return make(top: last.rows.top, bandRows: last.rows.bottom - last.rows.top, color: last.color,
                    rowFraction: last.rowFraction, plain: plain) != nil
    }

    /// Draws rows [top, top + 3 band heights) like a small viewport, then blends the
    /// band colour over it once (ordinary memory, never the frame).
    private func make(top: Int, bandRows: Int, color: Color, rowFraction: Int, plain: PlainRows) -> Strip? {
        strips[rowFraction] = nil
        let rows = max(1, bandRows) * 3
        guard let canvas = plain(top, rows, rowFraction) else { return nil }
        PixmanDraw.fill(canvas.pixmanImage, rect: PixelRect(size: canvas.size), color: color)
        let made = Strip(canvas: canvas, top: top, rows: rows, color: color, rowFraction: rowFraction)
        strips[rowFraction] = made
        return made
    }
}
