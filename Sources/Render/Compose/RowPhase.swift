/// Where a scrolling text viewport starts: a whole text row and the eighths of a
/// pixel past it, kept to the row phases the cache can afford.
struct RowPhase: Equatable {
    let top: Int
    /// 0–7: how many eighths of a pixel the text sits higher than `top`.
    let eighths: Int

    /// `eighths` rounded to the nearest of `phases` evenly spaced phases (1, 2, 4
    /// or 8), carrying into the next row at the top.
    init(eighths: Int, top: Int, phases: Int) {
        let step = ChunkedTextBlock.rowPhases / max(1, phases)
        let rounded = (min(max(eighths, 0), 7) + step / 2) / step * step
        self.top = top + rounded / ChunkedTextBlock.rowPhases
        self.eighths = rounded % ChunkedTextBlock.rowPhases
    }

    /// The phase counts a block may use, most first: each divides the eighths evenly.
    static let counts = [8, 4, 2, 1]

    /// Phases whose screens of pieces fit in four fifths of the budget (the rest is
    /// for the pieces about to scroll in): 8 at 1080p in the default 128 MB, fewer
    /// for a screen too large, down to whole rows.
    static func affordable(budget: Int, screenBytes: Int) -> Int {
        let screens = budget / 5 * 4 / max(1, screenBytes)
        return counts.first { $0 <= screens } ?? 1
    }
}
