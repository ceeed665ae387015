/// Paints one cached piece of the reading text: its lines upright at a row phase,
/// then in the display's orientation, and where it has ink.
///
/// Neighbouring chunks' edge lines are painted too, so ink that overhangs a line box
/// (descenders, tall accents) is not cut. At a row phase the lines sit `rowFraction`
/// 48ths of a pixel higher: a whole row up and the rest of the 48ths back down, which
/// the glyph painter does by moving the outlines.
struct PiecePainter {
    let lines: ReadingTextLines
    let columnWidth: Int
    /// Left margin: where each line's box starts inside the column.
    let textInset: Int
    let textColor: Color
    let accents: TextAccents?
    let background: Color
    var transform: TextTransform

    /// The piece of chunk `chunk` covering text rows [top, bottom): painted upright
    /// (into `spare` when it is upright-sized), then reflected in place or, for a
    /// quarter turn, turned into `spare` or a new canvas. Its ink is read upright, in
    /// text space, before the turn (ViewportInk maps it), so a display redraws only
    /// the rows a scroll changes. Nil when memory runs out.
    func paint(chunk: Int, rows: (top: Int, bottom: Int), rowFraction: Int,
               into spare: Canvas?) -> (canvas: Canvas, ink: PieceInk?)? {
        let uprightSize = PixelSize(width: columnWidth, height: rows.bottom - rows.top)
        guard let upright = (transform.swapsAxes ? nil : spare) ?? (try? Canvas(size: uprightSize)) else { return nil }
        upright.fill(background)
        let blank = upright.pixels.first
        let perChunk = ChunkedTextBlock.linesPerChunk
        for index in max(0, chunk * perChunk - 1)...(chunk * perChunk + perChunk) {
            guard let box = lines.lineBox(at: index) else { break }
            let reach = max(box.height, 1)
            guard box.bottom + reach > rows.top, box.y - reach < rows.bottom else { continue }
            lines.drawLine(at: index, into: upright.pixmanImage, x: textInset,
                           y: box.y - rows.top - (rowFraction > 0 ? 1 : 0),
                           rowFraction: rowFraction > 0 ? ChunkedTextBlock.rowFractions - rowFraction : 0,
                           color: textColor, accents: accents)
        }
        let ink = blank.map { PieceInk(canvas: upright, background: $0) }
        guard transform.swapsAxes else {
            transform.reflect(upright)
            return (upright, ink)
        }
        return transform.apply(to: upright, reusing: spare).map { ($0, ink) }
    }
}
