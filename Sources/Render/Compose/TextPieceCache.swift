/// Rasterized pieces of the chunked text block, in final orientation, with a
/// memory budget. A piece is a band of one chunk (a chunk taller than the budget
/// allows is cut into several pieces), so memory stays bounded whatever the
/// script length or font size.
final class TextPieceCache {
    struct Key: Hashable {
        var chunk: Int
        var piece: Int
        /// The row phase the piece was rasterized at, in 48ths of a pixel (ChunkedTextBlock.rowFractions).
        var rowFraction: Int
    }

    struct Entry {
        let pixels: TextPixels
        /// Text-space rows the piece covers.
        let top: Int
        let bottom: Int
        /// Where it has ink (nil when not read: a transformed piece).
        let ink: PieceInk?
    }

    /// Where each piece rasterized since the last `removeAll` has ink, kept when its
    /// pixels are evicted. Why: a frame's damage is known from the ink of the pieces
    /// it and the buffer's frame show, and a quarter turn's window outlives the
    /// pieces it was filled from. 32 bytes a line of text and phase, and an array a
    /// piece: 10,000 words at 60 px on 1080p (1,773 lines), every piece at sixteen
    /// phases, about 1 MB by count.
    private var inks: [Key: PieceInk] = [:]

    /// Where the piece `key` has ink, if it was rasterized (its pixels may be gone).
    func ink(_ key: Key) -> PieceInk? { inks[key] }

    /// Less than the block's budget while a quarter-turn window holds part of it.
    /// The pieces and the spare canvases both come out of it.
    var budgetBytes: Int
    private(set) var totalBytes = 0
    private var entries: [Key: Entry] = [:]
    /// Pixels of evicted pieces, at most one of each size and kind, kept for the next
    /// piece of that size (made by evicting one in `makeRoom`). Why: a new canvas is
    /// new memory, and the kernel zeroing it page by page on its first fill was most of
    /// a 4K piece's rasterizing (perf: clear_page_erms under the fill in `rasterize`),
    /// while a scrolling cache evicts a piece for each one it makes. A block of gray
    /// pieces keeps its colour canvas here between pieces: they are painted in it
    /// and then kept as grays.
    private var spares: [SpareKey: TextPixels] = [:]

    private struct SpareKey: Hashable {
        var size: PixelSize
        var gray: Bool

        init(size: PixelSize, gray: Bool) {
            self.size = size
            self.gray = gray
        }

        init(_ pixels: TextPixels) {
            switch pixels {
            case .color(let canvas): self.init(size: canvas.size, gray: false)
            case .gray(let gray): self.init(size: gray.size, gray: true)
            }
        }
    }
    private(set) var spareBytes = 0

    init(budgetBytes: Int) {
        self.budgetBytes = budgetBytes
    }

    var count: Int { entries.count }

    /// Everything held against the budget.
    var heldBytes: Int { totalBytes + spareBytes }

    subscript(key: Key) -> Entry? { entries[key] }

    func insert(_ entry: Entry, for key: Key) {
        if let ink = entry.ink { inks[key] = ink }
        if let old = entries.updateValue(entry, forKey: key) { totalBytes -= old.pixels.byteCount }
        totalBytes += entry.pixels.byteCount
    }

    /// Drops a piece and its pixels.
    func remove(_ key: Key) {
        if let old = entries.removeValue(forKey: key) { totalBytes -= old.pixels.byteCount }
    }

    func removeAll() {
        entries.removeAll()
        inks.removeAll()
        spares.removeAll()
        totalBytes = 0
        spareBytes = 0
    }

    /// The spare canvas of `size` (its pixels stale: the caller fills it whole), if
    /// one is kept and nothing else holds it.
    func takeSpare(size: PixelSize) -> Canvas? {
        guard let pixels = takeSpare(SpareKey(size: size, gray: false)) else { return nil }
        guard case .color(var canvas) = consume pixels else { return nil }
        return isKnownUniquelyReferenced(&canvas) ? canvas : nil
    }

    /// The spare gray canvas of `size` (stale), if one is kept and nothing else holds it.
    func takeGraySpare(size: PixelSize) -> GrayCanvas? {
        guard let pixels = takeSpare(SpareKey(size: size, gray: true)) else { return nil }
        guard case .gray(var gray) = consume pixels else { return nil }
        return isKnownUniquelyReferenced(&gray) ? gray : nil
    }

    private func takeSpare(_ key: SpareKey) -> TextPixels? {
        guard let pixels = spares.removeValue(forKey: key) else { return nil }
        spareBytes -= pixels.byteCount
        return pixels
    }

    /// Keeps `pixels` for the next piece of its size and kind, unless one is kept.
    func keepSpare(_ pixels: TextPixels) {
        let key = SpareKey(pixels)
        guard spares[key] == nil else { return }
        spares[key] = pixels
        spareBytes += pixels.byteCount
    }

    /// Whether a spare of `size` and kind is kept (its bytes are already held).
    func hasSpare(size: PixelSize, gray: Bool) -> Bool {
        spares[SpareKey(size: size, gray: gray)] != nil
    }

    /// Evicts pieces farthest from `focus` (a text-space y) until `incoming` more
    /// bytes fit, never touching `keep` nor pieces within `keepingWithin` rows of
    /// the focus. A piece of `size` comes out of a spare of that size, kept or made
    /// by evicting a piece of that size; spares of other sizes go first. With
    /// `gray`, the piece is painted in a colour canvas of `size` (`incoming` bytes)
    /// and kept in a gray one (`gray` bytes), each from its spare when there is one.
    /// Returns false when it cannot make enough room.
    @discardableResult
    func makeRoom(for incoming: Int, gray: Int? = nil, size: PixelSize? = nil, focus: Int, keep: Set<Key>,
                  keepingWithin: Int = -1) -> Bool {
        func needed() -> Int {
            let color = size.map { hasSpare(size: $0, gray: false) } == true ? 0 : incoming
            let grays = size.map { hasSpare(size: $0, gray: true) } == true ? 0 : (gray ?? 0)
            return heldBytes + color + grays - budgetBytes
        }
        guard needed() > 0 else { return true }
        for (other, pixels) in spares where other.size != size {
            spares[other] = nil
            spareBytes -= pixels.byteCount
        }
        guard needed() > 0 else { return true }
        let candidates = entries.filter { !keep.contains($0.key) }
            .map { (key: $0.key, distance: Self.distance(from: focus, top: $0.value.top, bottom: $0.value.bottom)) }
            .filter { $0.distance > keepingWithin }
            .sorted { $0.distance > $1.distance }
        guard candidates.reduce(0, { $0 + (entries[$1.key]?.pixels.byteCount ?? 0) }) >= needed()
        else { return false }
        for candidate in candidates where needed() > 0 {
            guard let evicted = entries.removeValue(forKey: candidate.key) else { continue }
            totalBytes -= evicted.pixels.byteCount
            if let size, evicted.pixels.size == size { keepSpare(evicted.pixels) }
        }
        return true
    }

    /// How far rows [top, bottom) lie from `y` (0 when it covers it).
    static func distance(from y: Int, top: Int, bottom: Int) -> Int {
        if y < top { return top - y }
        if y >= bottom { return y - bottom + 1 }
        return 0
    }
}
