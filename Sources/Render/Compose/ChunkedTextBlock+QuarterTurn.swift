import CPixman

/// Quarter turns while scrolling: frames copied from QuarterTurnWindow, one window
/// per row phase.
extension ChunkedTextBlock {
    /// Quarter turns while scrolling: the frame's rows, band included, come whole
    /// from the window of the frame's row phase. False when this frame is drawn from
    /// the pieces instead (not a quarter turn, a single frame such as `rig snapshot`,
    /// a target that is not XRGB8888 memory).
    ///
    /// Why a window per phase: a window holds its text rows rasterized at one phase,
    /// and moving a frame by a fraction of a pixel needs the rows rasterized again.
    /// Each window is rolled along only when its phase is drawn, so one whose phase
    /// has not come round for long is filled again whole (as after a jump).
    func drawThroughWindow(into target: OpaquePointer, frame: PixelRect, clip: PixelRect,
                           position: RowPhase, highlight: ReadingHighlight?) -> Bool {
        let previous = lastDrawnPosition
        lastDrawnPosition = position
        guard transform.swapsAxes, frame.height == columnWidth,
              pixman_image_get_format(target) == PIXMAN_x8r8g8b8,
              let bits = pixman_image_get_data(target),
              let window = scrollingWindow(frameSize: frame.size, position: position, previous: previous)
        else { return false }
        let viewportTop = position.top, sixteenths = position.sixteenths
        window.update(viewportTop: viewportTop) { rect, top in
            drawPlain(into: window.canvas.pixmanImage, frame: PixelRect(size: window.canvas.size), clip: rect,
                      viewportTop: top, rowSixteenths: sixteenths, focus: window.leadingRow(viewportTop: viewportTop),
                      keepOnlyClipped: true)
        }
        // Pieces are needed where text enters the window: keep and prepare those.
        lastViewportCentre = window.leadingRow(viewportTop: viewportTop)
        window.setBand(rows: highlight?.rows ?? 0..<0, tint: highlight.flatMap { bandTint(for: $0.color) })
        if cache.budgetBytes != cacheBudgetBytes - windowBytes {
            // The windows (and the rings of the band's plain pixels) come out of the budget.
            cache.budgetBytes = cacheBudgetBytes - windowBytes
            cache.makeRoom(for: 0, focus: lastViewportCentre, keep: [])
        }
        let visible = frame.intersection(clip).intersection(PixmanDraw.bounds(of: target))
        guard !visible.isEmpty else { return true }
        window.copy(rows: (visible.y - frame.y)..<(visible.maxY - frame.y),
                    columns: (visible.x - frame.x)..<(visible.maxX - frame.x), viewportTop: viewportTop,
                    into: bits, targetStride: Int(pixman_image_get_stride(target)) / 4,
                    targetX: frame.x, targetY: frame.y)
        return true
    }

    /// The bytes the windows hold.
    var windowBytes: Int { windows.values.reduce(0) { $0 + $1.byteCount } }

    /// The window of `position`'s phase for this frame size, made once the text
    /// scrolls by a small step (two frames in a row at different places), when the
    /// windows of all the phases drawn fit in at most 3/5 of the budget.
    private func scrollingWindow(frameSize: PixelSize, position: RowPhase, previous: RowPhase?) -> QuarterTurnWindow? {
        if let window = windows[position.sixteenths], window.frameSize == frameSize { return window }
        if windows.values.contains(where: { $0.frameSize != frameSize }) { dropWindows() }
        let slack = QuarterTurnWindow.slack
        guard let previous, previous != position, abs(position.top - previous.top) <= slack / 2,
              QuarterTurnWindow.byteCount(frameSize: frameSize) * rowPhasesDrawn <= cacheBudgetBytes / 5 * 3
        else { return nil }
        let firstRow = transform.displayRect(ofText: PixelRect(x: 0, y: 0, width: 1, height: 1),
                                             viewport: PixelSize(width: 1, height: 2))
        guard let made = try? QuarterTurnWindow(frameSize: frameSize, forward: firstRow.x == 0) else { return nil }
        // Its bytes come out of the budget once it is filled from the pieces cached
        // now: for that one frame the block may hold up to the window's size over its
        // budget, while taking it out first made a 4K quarter turn rasterize again
        // three of the pieces the fill needs.
        windows[position.sixteenths] = made
        return made
    }

    func dropWindows() {
        windows = [:]
        cache.budgetBytes = cacheBudgetBytes
    }

    /// The band's blend as lookup tables, made once per colour.
    private func bandTint(for color: Color) -> BandTint? {
        if let tint = windowBandTint, tint.color == color { return tint }
        windowBandTint = BandTint(color: color)
        return windowBandTint
    }
}
