/// Where the reading text's chunks of `ChunkedTextBlock.linesPerChunk` lines lie,
/// found from the layout only as far as asked, and the pieces (`pieceRows` tall, the
/// last of a chunk shorter) that the block caches each chunk in. It knows rows, not
/// pixels: the block rasterizes and caches what it names.
final class TextChunks {
    private struct Extent {
        var top: Int
        var bottom: Int
    }

    private let lines: ReadingTextLines
    let pieceRows: Int
    private var extents: [Extent] = []
    private(set) var isComplete = false
    /// Per chunk found so far, whether its pieces draw a colour of their own.
    private var colours: [Int: Bool] = [:]

    init(lines: ReadingTextLines, pieceRows: Int) {
        self.lines = lines
        self.pieceRows = pieceRows
    }

    /// The bottom of the last chunk found so far (the text's height once complete).
    var bottom: Int { extents.last?.bottom ?? 0 }

    /// Finds every chunk and returns the text's height.
    func measureAll() -> Int {
        while discoverNext() {}
        return bottom
    }

    /// A piece's cache key and the text rows it covers.
    typealias Piece = (key: TextPieceCache.Key, rows: (top: Int, bottom: Int))

    /// Pieces overlapping text rows [top, bottom), in order, laying out as needed.
    func pieceKeys(fromRow top: Int, toRow bottom: Int, rowFraction: Int = 0) -> [Piece] {
        var result: [Piece] = []
        guard bottom > top, var chunkIndex = index(containing: max(0, top)) else { return result }
        while chunkIndex < extents.count || discoverNext() {
            guard chunkIndex < extents.count else { break }
            let chunk = extents[chunkIndex]
            if chunk.top >= bottom { break }
            var piece = max(0, (top - chunk.top) / pieceRows)
            while chunk.top + piece * pieceRows < min(bottom, chunk.bottom) {
                let pieceTop = chunk.top + piece * pieceRows
                let rows = (top: pieceTop, bottom: min(chunk.bottom, pieceTop + pieceRows))
                result.append((TextPieceCache.Key(chunk: chunkIndex, piece: piece, rowFraction: rowFraction), rows))
                piece += 1
            }
            chunkIndex += 1
        }
        return result
    }

    /// Whether a chunk overlapping text rows [top, bottom) draws a colour of its own,
    /// laying out as needed; asked every frame, so it walks the chunks in place.
    func hasColour(rowsFrom top: Int, to bottom: Int) -> Bool {
        guard bottom > top, var chunk = index(containing: max(0, top)) else { return false }
        while chunk < extents.count || discoverNext() {
            guard chunk < extents.count, extents[chunk].top < bottom else { return false }
            if hasColour(chunk: chunk) { return true }
            chunk += 1
        }
        return false
    }

    /// Whether the pieces of chunk `chunk` draw a colour of their own (a direction or a
    /// highlight in its lines or the neighbours' lines its pieces paint too).
    private func hasColour(chunk: Int) -> Bool {
        if let known = colours[chunk] { return known }
        let perChunk = ChunkedTextBlock.linesPerChunk
        let found = (max(0, chunk * perChunk - 1)...(chunk * perChunk + perChunk)).contains {
            lines.lineBox(at: $0) != nil && lines.lineHasColour(at: $0)
        }
        colours[chunk] = found
        return found
    }

    /// The chunk holding text row `y`, or nil past the end of the text.
    private func index(containing y: Int) -> Int? {
        while bottom <= y, discoverNext() {}
        var low = 0, high = extents.count
        while low < high {
            let middle = (low + high) / 2
            if extents[middle].bottom <= y { low = middle + 1 } else { high = middle }
        }
        return low < extents.count ? low : nil
    }

    /// Finds the extent of the next chunk from the layout. False at the end.
    private func discoverNext() -> Bool {
        guard !isComplete else { return false }
        let perChunk = ChunkedTextBlock.linesPerChunk
        let first = extents.count * perChunk
        guard lines.lineBox(at: first) != nil else {
            isComplete = true
            return false
        }
        let top = bottom
        var end = top
        if let next = lines.lineBox(at: first + perChunk) {
            end = next.y
        } else {
            var index = first
            while let box = lines.lineBox(at: index) {
                end = max(end, box.bottom)
                index += 1
            }
        }
        extents.append(Extent(top: top, bottom: max(end, top + 1)))
        return true
    }
}
