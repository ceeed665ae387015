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

    /// The budget a display gets when rig.toml sets none: 128 MiB, or, for a display
    /// whose screens of text at 8 phases do not fit that (larger than about
    /// 2048x1536), what more phases need, if that is within twice as much. A 4K
    /// display gets 158 MiB and 4 phases (quarter pixels) instead of 2 in 128 MiB; 8
    /// would need 316 MiB. An 8K one stays at 128 MiB: 2 phases would need 316 MiB.
    static func automaticBudget(screenBytes: Int) -> Int {
        let least = ChunkedTextBlock.defaultCacheBudgetBytes
        let screen = max(1, screenBytes)
        let bought = affordable(budget: least, screenBytes: screen)
        for phases in counts where phases > bought {
            // Inverse of `affordable`: the screens fit in four fifths of the budget.
            let needed = phases * screen / 4 * 5 + 5
            if needed <= 2 * least { return needed }
        }
        return least
    }
}
