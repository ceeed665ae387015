import Markup

/// Console labels shaped once and reused while they stay on screen: the console is
/// redrawn every frame while the prompter scrolls, and most of its text does not
/// change. Entries not used for a few frames are dropped, so memory follows what
/// is shown.
public final class LabelCache {
    private struct Key: Hashable {
        var text: String
        var markup: ReadingMarkup
        var style: TextStyle
        var maxWidth: Int?
    }

    public let painter: GlyphPainter
    private var entries: [Key: (lines: [LaidOutLine], frame: Int)] = [:]
    /// `singleLine`'s answers (`maxWidth` the width it fitted): a console frame asks for
    /// dozens, and a hit is then one lookup, not a split and one or more.
    private var fitted: [Key: (lines: [LaidOutLine], frame: Int)] = [:]
    private var frame = 0

    public init(painter: GlyphPainter) { self.painter = painter }

    /// Call once per built frame; forgets labels unused for the last few frames.
    public func beginFrame() {
        frame += 1
        if frame % 30 == 0 {
            entries = entries.filter { frame - $0.value.frame < 30 }
            fitted = fitted.filter { frame - $0.value.frame < 30 }
        }
    }

    public func lines(_ text: String, markup: ReadingMarkup = .none, style: TextStyle,
                      maxWidth: Int?) -> [LaidOutLine] {
        let key = Key(text: text, markup: markup, style: style, maxWidth: maxWidth)
        if let hit = entries[key] {
            entries[key]?.frame = frame
            return hit.lines
        }
        let lines = painter.fonts.layoutLabel(text, markup: markup, style: style, maxWidth: maxWidth.map(Double.init))
        entries[key] = (lines, frame)
        return lines
    }

    /// One line of `text` that fits `maxWidth`, ending in "…" when it had to be cut.
    public func singleLine(_ text: String, style: TextStyle, maxWidth: Int) -> [LaidOutLine] {
        let key = Key(text: text, markup: .none, style: style, maxWidth: maxWidth)
        if let hit = fitted[key] {
            fitted[key]?.frame = frame
            return hit.lines
        }
        let lines = fit(text, style: style, maxWidth: maxWidth)
        fitted[key] = (lines, frame)
        return lines
    }

    private func fit(_ text: String, style: TextStyle, maxWidth: Int) -> [LaidOutLine] {
        let firstLine = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let whole = lines(firstLine, style: style, maxWidth: nil)
        guard let line = whole.first, line.width > Double(maxWidth) else {
            return whole.isEmpty || firstLine == text ? whole : lines(firstLine + " …", style: style, maxWidth: nil)
        }
        // Shorten by characters until it fits: labels are short, and the result is cached.
        var characters = Array(firstLine)
        while !characters.isEmpty {
            characters.removeLast(max(1, characters.count / 8))
            let candidate = lines(String(characters).trimmingTrailingSpaces + "…", style: style, maxWidth: nil)
            if (candidate.first?.width ?? 0) <= Double(maxWidth) { return candidate }
        }
        return lines("…", style: style, maxWidth: nil)
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
