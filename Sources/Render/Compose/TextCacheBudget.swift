/// How much memory the reading text may hold and which row phases that buys. A phase
/// costs a screen of pieces upright, and in a quarter turn a window of the screen and
/// half a screen of pieces (`turnedPhaseBytes`); the pieces about to scroll in, the
/// windows and the band's strips share the rest.
public enum TextCacheBudget {
    /// What the text gets when neither the display nor rig.toml asks for more.
    public static let defaultBytes = 128 << 20

    /// The most row phases a display of `size` gets in `budget` upright (a quarter
    /// turn may get fewer): what a block's pieces are cut for.
    public static func rowPhases(forDisplay size: PixelSize, budget: Int) -> Int {
        min(ChunkedTextBlock.rowPhases, phases(budget: budget, screenBytes: size.width * size.height * 4))
    }

    /// The row phases a frame of `size` is drawn at under `transform`: as many as the
    /// budget holds a screen of, up to `limit`; for a quarter turn, as many as it holds
    /// `turnedPhaseBytes` of (16 at 1080p, 4 at 4K in the automatic budget).
    static func rowPhases(forFrame size: PixelSize, transform: TextTransform, columnWidth: Int, budget: Int,
                          limit: Int) -> Int {
        let viewportBytes = transform.textSize(forDisplay: size).height * columnWidth * 4
        let phaseBytes = transform.swapsAxes ? turnedPhaseBytes(frameSize: size, viewportBytes: viewportBytes)
                                             : viewportBytes
        return min(limit, phases(budget: budget, screenBytes: phaseBytes))
    }

    /// What a quarter turn's phase costs: its window and half a screen of pieces. A
    /// window holds its phase's screen, so pieces are read only where text enters it
    /// and to fill it whole on its first frame, one phase at a time; the idle warm-up
    /// makes the windows and fills what the rest of the budget holds of pieces. A whole
    /// screen of pieces a phase, counted before, left 4K at two phases (0.186–0.236 px
    /// RMS on the running kiosk); four fit in 240 MiB, 0.118 px RMS with none of its
    /// frames late (`rig bench --case kiosk-smoothness:3840x2160:rot90`, README).
    static func turnedPhaseBytes(frameSize size: PixelSize, viewportBytes: Int) -> Int {
        QuarterTurnWindow.byteCount(frameSize: size) + viewportBytes / 2
    }

    /// Phases whose screens of pieces fit in four fifths of the budget (the rest is
    /// for the pieces about to scroll in): 12 at 1080p in the default 128 MiB, 16 in
    /// the 1080p automatic budget, fewer for a screen too large, down to whole rows.
    static func phases(budget: Int, screenBytes: Int) -> Int {
        let screens = budget / 5 * 4 / max(1, screenBytes)
        return RowPhase.counts.first { $0 <= screens } ?? 1
    }

    /// The budget a display gets when rig.toml sets none: 128 MiB, or what more
    /// phases need, if that is within twice as much, upright (a screen of pieces a
    /// phase) or turned a quarter (`turnedPhaseBytes` a phase), whichever needs more.
    /// 1080p gets 242.6 MiB: 16 phases upright and in a quarter turn. 2560x1440 gets
    /// 214.5 MiB: 12 and 8. 4K gets 239.9 MiB: 4 phases upright and turned (8 upright
    /// would need 316 MiB). An 8K display stays at 128 MiB: 2 phases would need 316 MiB.
    public static func automatic(forDisplay size: PixelSize) -> Int {
        let screen = size.width * size.height * 4
        let quarterTurn = turnedPhaseBytes(frameSize: size, viewportBytes: screen)
        return max(budgetForMostPhases(screenBytes: screen), budgetForMostPhases(screenBytes: quarterTurn))
    }

    private static func budgetForMostPhases(screenBytes: Int) -> Int {
        let least = defaultBytes
        let screen = max(1, screenBytes)
        let bought = phases(budget: least, screenBytes: screen)
        for count in RowPhase.counts where count > bought {
            // Inverse of `phases`: the screens fit in four fifths of the budget.
            let needed = count * screen / 4 * 5 + 5
            if needed <= 2 * least { return needed }
        }
        return least
    }
}
