/// The reading text's pieces and how each comes to be: where the pieces lie
/// (TextChunks), the ones rasterized and held within the budget (TextPieceCache), and
/// painting a missing one (PiecePainter) into the canvas of a piece evicted for it.
/// In gray colours (white on black) a piece is kept one byte a pixel (GrayCanvas)
/// unless it holds colour (an emoji, a highlight, a direction). The text block
/// (ChunkedTextBlock) composes its viewports from them and decides what to warm up;
/// this decides what a piece costs and which pieces make room.
final class TextPieces {
    /// Where the chunks lie and how they are cut into pieces.
    let chunks: TextChunks
    let cache: TextPieceCache
    /// Paints in the block's orientation (the block drops every piece before it turns).
    var painter: PiecePainter
    /// Pieces rasterized since the block was made (benchmarks and tests watch it).
    private(set) var rasterizedCount = 0
    /// Of those, the pieces painted into an evicted piece's canvas.
    private(set) var reusedCanvasCount = 0
    /// Whether the text and background are grays, so pieces are tried as grays.
    let keepsGray: Bool

    init(painter: PiecePainter, pieceRows: Int, budgetBytes: Int) {
        self.painter = painter
        keepsGray = TextCacheBudget.pieceBytesPerPixel(textColor: painter.textColor, background: painter.background) == 1
        chunks = TextChunks(lines: painter.lines, pieceRows: pieceRows)
        cache = TextPieceCache(budgetBytes: budgetBytes)
    }

    /// The piece `key` covering text rows `rows`: the cached one, or painted now,
    /// making room from the pieces farthest from text row `focus` but never from
    /// `keep`. Nil when memory runs out.
    func piece(for key: TextPieceCache.Key, rows: (top: Int, bottom: Int), focus: Int,
               keep: Set<TextPieceCache.Key>) -> TextPieceCache.Entry? {
        if let cached = cache[key] { return cached }
        cache.makeRoom(for: bytes(rows: rows), gray: grayBytes(rows: rows), size: size(rows: rows), focus: focus,
                       keep: keep)
        let spare = cache.takeSpare(size: size(rows: rows))
        if spare != nil { reusedCanvasCount += 1 }
        guard let made = painter.paint(chunk: key.chunk, rows: rows, rowFraction: key.rowFraction, into: spare)
        else { return nil }
        var pixels = TextPixels.color(made.canvas)
        if keepsGray {
            let spareGray = cache.takeGraySpare(size: made.canvas.size)
            if let gray = GrayCanvas.gray(of: made.canvas, reusing: spareGray) {
                // The colour canvas waits for the next piece to be painted in.
                cache.keepSpare(pixels)
                pixels = .gray(gray)
            } else if let spareGray {
                cache.keepSpare(.gray(spareGray))
            }
        }
        let entry = TextPieceCache.Entry(pixels: pixels, top: rows.top, bottom: rows.bottom, ink: made.ink)
        cache.insert(entry, for: key)
        rasterizedCount += 1
        return entry
    }

    /// Paints up to `limit` missing pieces of text rows [top, bottom) at each of
    /// `fractions`, nearest text row `centre` first and a piece's phases together (the
    /// next rows are then whole), while the budget has room. Returns how many.
    func prepare(rowsFrom top: Int, to bottom: Int, fractions: [Int], centre: Int, limit: Int) -> Int {
        let candidates = fractions
            .flatMap { chunks.pieceKeys(fromRow: max(0, top), toRow: bottom, rowFraction: $0) }
            .filter { cache[$0.key] == nil }
            .map { (key: $0.key, rows: $0.rows, distance: abs(($0.rows.top + $0.rows.bottom) / 2 - centre)) }
            .sorted { ($0.distance, $0.key.rowFraction) < ($1.distance, $1.key.rowFraction) }
        var done = 0
        for (key, rows, _) in candidates.prefix(limit) {
            // Make room only from pieces farther away than this one, or prefetching
            // would evict and paint again the same pieces forever.
            let distance = TextPieceCache.distance(from: centre, top: rows.top, bottom: rows.bottom)
            guard cache.makeRoom(for: bytes(rows: rows), gray: grayBytes(rows: rows), size: size(rows: rows),
                                 focus: centre, keep: [], keepingWithin: distance),
                  piece(for: key, rows: rows, focus: centre, keep: []) != nil
            else { break }
            done += 1
        }
        return done
    }

    /// Where `count` text rows from `top` have ink at row phase `fraction`, from the
    /// ink of their pieces (kept after their pixels go); nil when one was never painted.
    func ink(top: Int, count: Int, fraction: Int) -> ViewportInk? {
        ViewportInk(top: top, count: count,
                    pieces: chunks.pieceKeys(fromRow: top, toRow: top + count, rowFraction: fraction)) { cache.ink($0) }
    }

    private func bytes(rows: (top: Int, bottom: Int)) -> Int {
        painter.columnWidth * (rows.bottom - rows.top) * 4
    }

    /// What a piece of `rows` holds kept gray (nil when pieces are not tried as grays).
    private func grayBytes(rows: (top: Int, bottom: Int)) -> Int? {
        keepsGray ? painter.columnWidth * (rows.bottom - rows.top) : nil
    }

    /// A piece's canvas size, in final orientation.
    private func size(rows: (top: Int, bottom: Int)) -> PixelSize {
        painter.transform.displaySize(forText: PixelSize(width: painter.columnWidth, height: rows.bottom - rows.top))
    }
}
