/// Where a scrolling text viewport starts: a whole text row and the sixteenths of a
/// pixel past it, kept to the row phases the cache can afford.
struct RowPhase: Equatable {
    let top: Int
    /// 0–15: how many sixteenths of a pixel the text sits higher than `top`.
    let sixteenths: Int

    /// `sixteenths` rounded to the nearest of `phases` evenly spaced phases (1, 2, 4,
    /// 8 or 16), carrying into the next row at the top.
    init(sixteenths: Int, top: Int, phases: Int) {
        let step = ChunkedTextBlock.rowPhases / max(1, phases)
        let rounded = (min(max(sixteenths, 0), ChunkedTextBlock.rowPhases - 1) + step / 2) / step * step
        self.top = top + rounded / ChunkedTextBlock.rowPhases
        self.sixteenths = rounded % ChunkedTextBlock.rowPhases
    }

    /// The phase counts a block may use, most first: each divides the sixteenths evenly.
    static let counts = [16, 8, 4, 2, 1]

    /// Phases whose screens of pieces fit in four fifths of the budget (the rest is
    /// for the pieces about to scroll in): 8 at 1080p in the default 128 MiB, 16 in
    /// the 1080p automatic budget, fewer for a screen too large, down to whole rows.
    static func affordable(budget: Int, screenBytes: Int) -> Int {
        let screens = budget / 5 * 4 / max(1, screenBytes)
        return counts.first { $0 <= screens } ?? 1
    }

    /// The budget a display gets when rig.toml sets none: 128 MiB, or what more
    /// phases need, if that is within twice as much, upright (`screenBytes` a phase)
    /// or turned a quarter (`quarterTurnBytes` a phase: a screen of pieces and a
    /// window), whichever needs more. 1080p gets 160.8 MiB: 16 phases upright, 8 in a
    /// quarter turn (8 and 4 in 128 MiB). 4K gets 159.5 MiB: 4 phases upright, 2 in a
    /// quarter turn (2 and 1 in 128 MiB; 8 upright would need 316 MiB). An 8K
    /// display stays at 128 MiB: 2 phases would need 316 MiB.
    static func automaticBudget(screenBytes: Int, quarterTurnBytes: Int) -> Int {
        max(budgetForMostPhases(screenBytes: screenBytes), budgetForMostPhases(screenBytes: quarterTurnBytes))
    }

    private static func budgetForMostPhases(screenBytes: Int) -> Int {
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
