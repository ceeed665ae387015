/// Where a scrolling text viewport starts: a whole text row and the 48ths of a pixel
/// past it, kept to the row phases the cache can afford.
struct RowPhase: Equatable {
    let top: Int
    /// 0–47: how many 48ths of a pixel the text sits higher than `top`.
    let fraction: Int

    /// `fraction` rounded to the nearest of `phases` evenly spaced phases (one of
    /// `counts`), carrying into the next row at the top.
    init(fraction: Int, top: Int, phases: Int) {
        let units = ChunkedTextBlock.rowFractions
        let step = units / max(1, phases)
        let rounded = (min(max(fraction, 0), units - 1) + step / 2) / step * step
        self.top = top + rounded / units
        self.fraction = rounded % units
    }

    /// The phase counts a block may use, most first: each divides the 48ths evenly.
    /// Twelve is there for the budget between eight and sixteen: twelve phases step
    /// with at most 0.042 px RMS error at every speed, eight with 0.061, and a 1080p
    /// quarter turn affords twelve windows within twice the default budget where it
    /// cannot afford sixteen. Three and six are not, though 48 allows them: at 4K,
    /// three quarter-turn phases (for 0.170 px RMS against two's 0.19–0.24) cost 15 %
    /// more a frame, and in the 239 MiB budget they need, upright text had 6 frames
    /// over 4 ms after the first 20 in each of two runs against 0–1 in 160 MiB
    /// (`rig bench --case compose:3840x2160:60:rot90:110` and `:identity:110`,
    /// 600 frames, 2026-12-05).
    static let counts = [16, 12, 8, 4, 2, 1]
}
