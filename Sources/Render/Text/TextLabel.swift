import Markup

extension FontLibrary {
    /// Shapes a short piece of UI text (overlay, badge, status line) with the same
    /// shaping, fallback and bidi as the reading text. One paragraph per line of
    /// `text`; wraps at `maxWidth` when given. Every returned line starts at x = 0 and
    /// at y = its index times the line height; the caller aligns it using `width`.
    /// Returns no lines when no font at all can be found.
    /// `markup` marks it as a reading text is marked (the editor's lines).
    public func layoutLabel(_ text: String, markup: ReadingMarkup = .none, style: TextStyle,
                            maxWidth: Double? = nil) -> [LaidOutLine] {
        // Without a width: a column no label reaches, small enough to keep Float x exact.
        let column = maxWidth.map { max(1, $0) } ?? 100_000
        guard let layout = try? TextLayout(text: text, markup: markup, style: style, columnWidth: column,
                                           fonts: self) else {
            return []
        }
        layout.layoutAll()
        return layout.lines.map { line in
            var line = line
            let shift = Float(line.left)
            for i in line.glyphs.indices { line.glyphs[i].x -= shift }
            for i in line.highlights.indices { line.highlights[i].x -= shift }
            return line
        }
    }
}
