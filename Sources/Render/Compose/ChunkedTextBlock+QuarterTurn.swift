import CPixman

/// Quarter turns while scrolling: frames copied from QuarterTurnWindow.
extension ChunkedTextBlock {
    /// Quarter turns while scrolling: the frame's rows, band included, come whole
    /// from the window. False when this frame is drawn from the pieces instead (not
    /// a quarter turn, a single frame such as `rig snapshot`, a target that is not
    /// XRGB8888 memory).
    func drawThroughWindow(into target: OpaquePointer, frame: PixelRect, clip: PixelRect,
                           viewportTop: Int, highlight: ReadingHighlight?) -> Bool {
        let previousTop = lastDrawnTop
        lastDrawnTop = viewportTop
        guard transform.swapsAxes, frame.height == columnWidth,
              pixman_image_get_format(target) == PIXMAN_x8r8g8b8,
              let bits = pixman_image_get_data(target),
              let window = scrollingWindow(frameSize: frame.size, viewportTop: viewportTop, previousTop: previousTop)
        else { return false }
        window.update(viewportTop: viewportTop) { rect, top in
            drawPlain(into: window.canvas.pixmanImage, frame: PixelRect(size: window.canvas.size), clip: rect,
                      viewportTop: top, focus: window.leadingRow(viewportTop: viewportTop), keepOnlyClipped: true)
        }
        // Pieces are needed where text enters the window: keep and prepare those.
        lastViewportCentre = window.leadingRow(viewportTop: viewportTop)
        window.setBand(rows: highlight?.rows ?? 0..<0, tint: highlight.flatMap { bandTint(for: $0.color) })
        if cache.budgetBytes != cacheBudgetBytes - window.byteCount {
            // The window (and the ring of the band's plain pixels) comes out of the budget.
            cache.budgetBytes = cacheBudgetBytes - window.byteCount
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

    /// The window for this frame size, made once the text scrolls by a small step
    /// (two frames in a row), when it fits in at most 3/5 of the budget.
    private func scrollingWindow(frameSize: PixelSize, viewportTop: Int, previousTop: Int?) -> QuarterTurnWindow? {
        if let window, window.frameSize == frameSize { return window }
        dropWindow()
        let slack = QuarterTurnWindow.slack
        guard let previousTop, previousTop != viewportTop, abs(viewportTop - previousTop) <= slack / 2,
              (frameSize.width + slack) * frameSize.height * 4 <= cacheBudgetBytes / 5 * 3
        else { return nil }
        let firstRow = transform.displayRect(ofText: PixelRect(x: 0, y: 0, width: 1, height: 1),
                                             viewport: PixelSize(width: 1, height: 2))
        guard let made = try? QuarterTurnWindow(frameSize: frameSize, forward: firstRow.x == 0) else { return nil }
        // Its bytes come out of the budget once it is filled from the pieces cached
        // now: for that one frame the block may hold up to the window's size over its
        // budget, while taking it out first made a 4K quarter turn rasterize again
        // three of the pieces the fill needs.
        window = made
        return made
    }

    func dropWindow() {
        window = nil
        cache.budgetBytes = cacheBudgetBytes
    }

    /// The band's blend as lookup tables, made once per colour.
    private func bandTint(for color: Color) -> BandTint? {
        if let tint = windowBandTint, tint.color == color { return tint }
        windowBandTint = BandTint(color: color)
        return windowBandTint
    }
}
