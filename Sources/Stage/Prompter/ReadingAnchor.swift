import Render

/// Where the reading line is in the script's text, whatever the font, the size or the
/// margins: the word that starts the line at the reading line (from 0, numbered as saved
/// positions and voice follow number them), how far through that line the reading line
/// is, and the speed in lines a second as this rig shows it. Another rig with its own
/// reading settings puts the same place on its reading line with `offset(in:)`; this is
/// what a follower rig tracks of its lead (README: several rigs, one script).
package struct ReadingAnchor: Equatable, Sendable {
    package var word: Int
    /// 0 with the top of the word's line at the reading line, towards 1 at its bottom.
    package var lineFraction: Double
    package var linesPerSecond: Double

    package init(word: Int, lineFraction: Double, linesPerSecond: Double) {
        self.word = word
        self.lineFraction = lineFraction
        self.linesPerSecond = linesPerSecond
    }

    /// The anchor of scroll `offset` moving at `rate` px/s in `layout`.
    package init(layout: TextLayout, offset: Double, rate: Double) {
        let height = max(layout.lineHeight, 1)
        word = layout.wordIndex(atY: offset)
        lineFraction = max(0, (offset - layout.y(ofWord: word)) / height)
        linesPerSecond = rate / height
    }

    /// The scroll offset that puts the same place on `layout`'s reading line.
    package func offset(in layout: TextLayout) -> Double {
        layout.y(ofWord: word) + lineFraction * layout.lineHeight
    }

    /// `prompter.anchor` in the status and the remote's live state, with the wall-clock
    /// time it was taken at (seconds since 1970: both rigs' clocks are kept by chrony)
    /// and the SHA-256 of the script's text.
    package func json(wallTime: Double, scriptHash: String) -> JSONValue {
        ["word": .int(word), "line_fraction": .number((lineFraction * 10_000).rounded() / 10_000),
         "lines_per_second": .number((linesPerSecond * 10_000).rounded() / 10_000),
         "wall_time": .number((wallTime * 1000).rounded() / 1000), "script_hash": .string(scriptHash)]
    }
}
