/// Rasterized pieces of the chunked text block, in final orientation, with a
/// memory budget. A piece is a band of one chunk (a chunk taller than the budget
/// allows is cut into several pieces), so memory stays bounded whatever the
/// script length or font size.
final class TextPieceCache {
    struct Key: Hashable {
        var chunk: Int
        var piece: Int
        /// The row phase the piece was rasterized at (ChunkedTextBlock.rowPhases).
        var rowSixteenths: Int
    }

    struct Entry {
        let canvas: Canvas
        /// Text-space rows the piece covers.
        let top: Int
        let bottom: Int
        /// Where it has ink (nil when not read: a transformed piece).
        let ink: PieceInk?
    }

    /// Less than the block's budget while a quarter-turn window holds part of it.
    var budgetBytes: Int
    private(set) var totalBytes = 0
    private var entries: [Key: Entry] = [:]

    init(budgetBytes: Int) {
        self.budgetBytes = budgetBytes
    }

    var count: Int { entries.count }

    subscript(key: Key) -> Entry? { entries[key] }

    func insert(_ entry: Entry, for key: Key) {
        if let old = entries.updateValue(entry, forKey: key) { totalBytes -= old.canvas.byteCount }
        totalBytes += entry.canvas.byteCount
    }

    func remove(_ key: Key) {
        if let old = entries.removeValue(forKey: key) { totalBytes -= old.canvas.byteCount }
    }

    func removeAll() {
        entries.removeAll()
        totalBytes = 0
    }

    /// Evicts pieces farthest from `focus` (a text-space y) until `incoming`
    /// more bytes fit, never touching `keep` nor pieces within `keepingWithin`
    /// rows of the focus. Returns false when it cannot make enough room.
    @discardableResult
    func makeRoom(for incoming: Int, focus: Int, keep: Set<Key>, keepingWithin: Int = -1) -> Bool {
        guard totalBytes + incoming > budgetBytes else { return true }
        let candidates = entries.filter { !keep.contains($0.key) }
            .map { (key: $0.key, distance: Self.distance(from: focus, top: $0.value.top, bottom: $0.value.bottom)) }
            .filter { $0.distance > keepingWithin }
            .sorted { $0.distance > $1.distance }
        let needed = totalBytes + incoming - budgetBytes
        guard candidates.reduce(0, { $0 + (entries[$1.key]?.canvas.byteCount ?? 0) }) >= needed
        else { return false }
        for candidate in candidates where totalBytes + incoming > budgetBytes {
            remove(candidate.key)
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
