import CPixman

/// Quarter turns while scrolling: the frames are copied from a QuarterTurnWindow, one
/// per row phase drawn, and the text block that owns this fills them from its pieces.
///
/// Why a window per phase: a window holds its text rows rasterized at one phase, and
/// moving a frame by a fraction of a pixel needs the rows rasterized again. Each
/// window is rolled along only when its phase is drawn, so one whose phase has not
/// come round for long is filled again whole (as after a jump).
final class QuarterTurnWindows {
    /// Draws window rows `rect` as a viewport starting at text row `top`, from the
    /// pieces at the window's phase (`fraction`). False when the window cannot hold
    /// what the pieces hold (a piece in colour for a gray window).
    typealias Fill = (_ window: QuarterTurnWindow, _ rect: PixelRect, _ top: Int, _ fraction: Int) -> Bool

    private var windows: [Int: QuarterTurnWindow] = [:]
    /// The whole row and row phase of the frame drawn last, turned or not.
    private var lastDrawnPosition: RowPhase?
    private var bandTint: BandTint?
    /// Whether new windows keep gray levels (the block's pieces are gray). Cleared,
    /// with every window, when a gray window meets a piece in colour (an emoji). (A
    /// band of any colour blends over gray levels as the frame is copied.)
    var gray = false

    /// The bytes the windows hold.
    var byteCount: Int { windows.values.reduce(0) { $0 + $1.byteCount } }

    func removeAll() { windows = [:] }

    /// Drops the windows of phases a frame drawn at `phases` phases cannot choose.
    func keep(phases: Int) {
        let step = ChunkedTextBlock.rowFractions / max(1, phases)
        guard windows.keys.contains(where: { $0 % step != 0 }) else { return }
        windows = windows.filter { $0.key % step == 0 }
    }

    /// Copies the frame's rows, band included, whole from the window of `position`'s
    /// phase, rolled to it first. Returns the text row entering the window (where the
    /// pieces are needed), or nil when this frame is drawn from the pieces instead:
    /// `turn` nil (not a quarter turn filling the frame), a single frame such as
    /// `rig snapshot`, a target that is not XRGB8888 memory, no window for the
    /// phase while `mayMakeWindow` is false, or a gray window that met colour.
    func draw(into target: OpaquePointer, frame: PixelRect, clips: [PixelRect], position: RowPhase,
              highlight: ReadingHighlight?, turn: TextTransform?, mayMakeWindow: Bool, fill: Fill) -> Int? {
        let previous = lastDrawnPosition
        lastDrawnPosition = position
        guard let turn, pixman_image_get_format(target) == PIXMAN_x8r8g8b8,
              let bits = pixman_image_get_data(target),
              let window = window(frameSize: frame.size, position: position, previous: previous, turn: turn,
                                  mayMake: mayMakeWindow)
        else { return nil }
        let viewportTop = position.top
        var held = true
        window.update(viewportTop: viewportTop) { rect, top in
            held = fill(window, rect, top, position.fraction) && held
        }
        guard held else {
            gray = false
            removeAll()
            return nil
        }
        let bounds = frame.intersection(PixmanDraw.bounds(of: target))
        let areas = clips.map { $0.intersection(bounds).offsetBy(dx: -frame.x, dy: -frame.y) }.filter { !$0.isEmpty }
        let band = highlight.flatMap { highlight in
            tint(for: highlight.color).map { (rows: highlight.rows, tint: $0) }
        }
        window.copy(areas: areas, viewportTop: viewportTop, band: band, into: bits,
                    targetStride: Int(pixman_image_get_stride(target)) / 4, targetX: frame.x, targetY: frame.y)
        return window.leadingRow(viewportTop: viewportTop)
    }

    /// The window of `position`'s phase for this frame size, made once the text
    /// scrolls by a small step (two frames in a row at different places).
    private func window(frameSize: PixelSize, position: RowPhase, previous: RowPhase?, turn: TextTransform,
                        mayMake: Bool) -> QuarterTurnWindow? {
        if let window = windows[position.fraction], window.frameSize == frameSize, window.isGray == gray {
            return window
        }
        if windows.values.contains(where: { $0.frameSize != frameSize || $0.isGray != gray }) { removeAll() }
        guard mayMake, let previous, previous != position,
              abs(position.top - previous.top) <= QuarterTurnWindow.slack / 2 else { return nil }
        return make(fraction: position.fraction, frameSize: frameSize, turn: turn)
    }

    private func make(fraction: Int, frameSize: PixelSize, turn: TextTransform) -> QuarterTurnWindow? {
        // Forward: the first text row is at the display's left.
        let firstRow = turn.displayRect(ofText: PixelRect(x: 0, y: 0, width: 1, height: 1),
                                        viewport: PixelSize(width: 1, height: 2))
        guard let made = try? QuarterTurnWindow(frameSize: frameSize, forward: firstRow.x == 0, gray: gray)
        else { return nil }
        windows[fraction] = made
        return made
    }

    /// Makes the window of the first of `fractions` that has none for `frameSize`,
    /// or when each has one, fills the first still empty for the place of the frame
    /// drawn last. Returns false when each is made and filled.
    ///
    /// Why, while the display is idle: a window is a frame's worth of new memory, and
    /// the kernel zeroing it page by page held back the frames that made one when the
    /// text started to scroll: 1–2 frames a vblank late at play at 1080p and 4K
    /// (`rig bench --case kiosk-smoothness:3840x2160:rot90`). Filling one whole is a
    /// frame's worth of copying from the pieces: with twelve phases at 4K (gray
    /// windows), the first frame of each phase after play filled its window and
    /// 7-11 frames came over one and a half refresh periods late.
    func prepare(fractions: [Int], frameSize: PixelSize, turn: TextTransform, fill: Fill) -> Bool {
        if windows.values.contains(where: { $0.frameSize != frameSize || $0.isGray != gray }) { removeAll() }
        if let missing = fractions.first(where: { windows[$0] == nil }) {
            return make(fraction: missing, frameSize: frameSize, turn: turn) != nil
        }
        guard let top = lastDrawnPosition?.top,
              let fraction = fractions.first(where: { windows[$0]?.isFilled == false }),
              let window = windows[fraction] else { return false }
        var held = true
        window.update(viewportTop: top) { rect, rowTop in held = fill(window, rect, rowTop, fraction) && held }
        if !held {
            gray = false
            removeAll()
        }
        return true
    }

    /// The viewport top of the frame drawn last, turned or not.
    var lastDrawnTop: Int? { lastDrawnPosition?.top }

    /// How many windows are held (tests).
    var count: Int { windows.count }

    /// The band's blend (BandTint: arithmetic checked against pixman's tables), made once per colour.
    private func tint(for color: Color) -> BandTint? {
        if let bandTint, bandTint.color == color { return bandTint }
        bandTint = BandTint(color: color)
        return bandTint
    }
}
