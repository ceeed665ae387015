/// How much memory the reading text may hold and which row phases that buys. A phase
/// costs a screen of pieces (and, in a quarter turn, a window of the screen); the
/// pieces about to scroll in, the windows and the band's strips share the rest.
public enum TextCacheBudget {
    /// What the text gets when neither the display nor rig.toml asks for more.
    public static let defaultBytes = 128 << 20

    /// What a block in these colours keeps a pixel of its pieces in at best: 1 for
    /// gray text on gray (GrayCanvas, but for lines with a colour of their own), else 4.
    public static func pieceBytesPerPixel(textColor: Color, background: Color) -> Int {
        textColor.isGray && background.isGray ? 1 : 4
    }

    /// The most row phases a display of `size` gets in `budget` upright (a quarter
    /// turn may get fewer): what a block's pieces are cut for. Pieces of gray text
    /// are one byte a pixel (`pieceBytesPerPixel`), others four.
    public static func rowPhases(forDisplay size: PixelSize, budget: Int, pieceBytesPerPixel: Int = 4) -> Int {
        min(ChunkedTextBlock.rowPhases,
            phases(budget: budget, screenBytes: size.width * size.height * pieceBytesPerPixel))
    }

    /// The row phases a frame of `size` is drawn at under `transform`: as many as the
    /// budget holds a screen of, up to `limit`; for a quarter turn, a screen of pieces
    /// and its window per phase (in colour 12 at 1080p, 2 at 4K in the automatic
    /// budget; gray, 16 and 12).
    static func rowPhases(forFrame size: PixelSize, transform: TextTransform, columnWidth: Int, budget: Int,
                          limit: Int, pieceBytesPerPixel: Int = 4, windowBytesPerPixel: Int = 4) -> Int {
        let viewportBytes = transform.textSize(forDisplay: size).height * columnWidth * pieceBytesPerPixel
        let windowBytes = transform.swapsAxes
            ? QuarterTurnWindow.byteCount(frameSize: size, bytesPerPixel: windowBytesPerPixel) : 0
        return min(limit, phases(budget: budget, screenBytes: viewportBytes + windowBytes))
    }

    /// Phases whose screens of pieces fit in four fifths of the budget (the rest is
    /// for the pieces about to scroll in): 12 at 1080p in the default 128 MiB, 16 in
    /// the 1080p automatic budget, fewer for a screen too large, down to whole rows.
    static func phases(budget: Int, screenBytes: Int) -> Int {
        let screens = budget / 5 * 4 / max(1, screenBytes)
        return RowPhase.counts.first { $0 <= screens } ?? 1
    }

    /// The budget a display gets when rig.toml sets none, for text in colour: 128
    /// MiB, or what more phases need, if that is within twice as much, upright (a
    /// screen of pieces a phase) or turned a quarter (a screen of pieces and a window
    /// a phase), whichever needs more. 1080p gets 241.3 MiB: 16 phases upright, 12 in
    /// a quarter turn (12 and 4 in 128 MiB; 16 turned would need 316 MiB). 4K gets
    /// 159.5 MiB: 4 phases upright, 2 in a quarter turn (2 and 1 in 128 MiB; 8
    /// upright would need 316 MiB). An 8K display stays at 128 MiB: 2 phases would
    /// need 316 MiB.
    ///
    /// Gray text (`pieceBytesPerPixel` 1, pieces and windows a byte a pixel) starts
    /// from a quarter, 32 MiB, the same rows of text, and may grow to the same 256
    /// MiB: 1080p gets 80.4 MiB (16 phases upright and turned), 4K 239.3 MiB (16
    /// upright, 12 turned: 16 would need 319 MiB).
    public static func automatic(forDisplay size: PixelSize, pieceBytesPerPixel: Int = 4) -> Int {
        let screen = size.width * size.height * pieceBytesPerPixel
        let quarterTurn = screen + QuarterTurnWindow.byteCount(frameSize: size, bytesPerPixel: pieceBytesPerPixel)
        let least = pieceBytesPerPixel == 1 ? defaultBytes / 4 : defaultBytes
        return max(budgetForMostPhases(screenBytes: screen, least: least),
                   budgetForMostPhases(screenBytes: quarterTurn, least: least))
    }

    private static func budgetForMostPhases(screenBytes: Int, least: Int) -> Int {
        let screen = max(1, screenBytes)
        let bought = phases(budget: least, screenBytes: screen)
        for count in RowPhase.counts where count > bought {
            // Inverse of `phases`: the screens fit in four fifths of the budget.
            let needed = count * screen / 4 * 5 + 5
            if needed <= 2 * defaultBytes { return needed }
        }
        return least
    }
}
