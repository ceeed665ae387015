/// Shaping results of whole paragraphs, shared by layouts of the same text, family
/// and size. Shaping does not depend on the column width, so a margin change
/// (`TextLayout.withColumnWidth`) only re-breaks and re-places lines.
///
/// Only whole paragraphs are kept: pieces of a long paragraph start where the
/// previous piece's last line started, which depends on the width.
final class ShapedParagraphCache {
    struct Entry {
        let end: Int
        let runs: [ShapingRun]
        let glyphs: [ShapedGlyph]
        let bidi: BidiParagraph?
        let canBreakAfter: [Bool]
    }

    private var entries: [Int: Entry] = [:]

    func entry(start: Int, end: Int) -> Entry? {
        guard let entry = entries[start], entry.end == end else { return nil }
        return entry
    }

    func store(_ entry: Entry, start: Int) { entries[start] = entry }
}
