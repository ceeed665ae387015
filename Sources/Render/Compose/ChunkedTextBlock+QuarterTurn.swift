import CPixman

/// Quarter turns while scrolling: frames copied from QuarterTurnWindow.
extension ChunkedTextBlock {
    /// Quarter turns while scrolling: the frame's rows come whole from the window,
    /// and the band is written over them from its own tinted window. False when this
    /// frame is drawn from the pieces instead (not a quarter turn, a single frame
    /// such as `rig snapshot`, a target that is not XRGB8888 memory).
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
        let visible = frame.intersection(clip).intersection(PixmanDraw.bounds(of: target))
        guard !visible.isEmpty else { return true }
        var band: QuarterTurnWindow.Band?
        if let highlight, !highlight.rows.isEmpty {
            let viewport = transform.textSize(forDisplay: frame.size)
            let bandText = PixelRect(x: 0, y: highlight.rows.lowerBound, width: viewport.width,
                                     height: highlight.rows.count)
            let bandRect = transform.displayRect(ofText: bandText, viewport: viewport)
                .offsetBy(dx: frame.x, dy: frame.y)
            let visibleBand = bandRect.intersection(visible)
            if !visibleBand.isEmpty {
                // A quarter-turned band runs the frame's full height.
                guard bandRect.y <= visible.y, bandRect.maxY >= visible.maxY,
                      let bandWindow = tintedBand(highlight, frameHeight: frame.height, main: window)
                else { return false }
                let bandTop = viewportTop + highlight.rows.lowerBound
                bandWindow.update(viewportTop: bandTop) { rect, top in
                    drawTinted(rect, top: top, of: bandWindow, color: highlight.color, from: window)
                }
                band = .init(window: bandWindow, viewportTop: bandTop,
                             columns: (visibleBand.x - frame.x)..<(visibleBand.maxX - frame.x),
                             firstColumn: visibleBand.x - bandRect.x)
            }
        }
        window.copy(rows: (visible.y - frame.y)..<(visible.maxY - frame.y),
                    columns: (visible.x - frame.x)..<(visible.maxX - frame.x), viewportTop: viewportTop,
                    into: bits, targetStride: Int(pixman_image_get_stride(target)) / 4,
                    targetX: frame.x, targetY: frame.y, band: band)
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
        window = made
        cache.budgetBytes = cacheBudgetBytes - made.byteCount
        cache.makeRoom(for: 0, focus: made.leadingRow(viewportTop: viewportTop), keep: [])
        return made
    }

    func dropWindow() {
        window = nil
        bandWindow = nil
        cache.budgetBytes = cacheBudgetBytes
    }

    /// The band's window, made (and its bytes taken out of the budget) on first use.
    private func tintedBand(_ highlight: ReadingHighlight, frameHeight: Int,
                            main: QuarterTurnWindow) -> QuarterTurnWindow? {
        if let bandWindow, bandWindow.highlight == highlight { return bandWindow.window }
        if let old = bandWindow?.window { cache.budgetBytes += old.byteCount }
        bandWindow = nil
        guard let made = try? QuarterTurnWindow(frameSize: PixelSize(width: highlight.rows.count, height: frameHeight),
                                                forward: main.forward)
        else { return nil }
        bandWindow = (made, highlight)
        cache.budgetBytes -= made.byteCount
        cache.makeRoom(for: 0, focus: main.leadingRow(viewportTop: lastDrawnTop ?? 0), keep: [])
        strip = nil   // the frames use the band window now
        lastHighlight = nil
        return made
    }

    /// Draws columns and rows `rect` of the band window (rows from text row `top`),
    /// copied from the main window where it holds them, then tints them once.
    private func drawTinted(_ rect: PixelRect, top: Int, of band: QuarterTurnWindow, color: Color,
                            from main: QuarterTurnWindow) {
        let columns = rect.x..<rect.maxX
        if !main.copyTextRows(rect.y..<rect.maxY, top: band.textRows(ofColumns: columns, top: top),
                              count: rect.width, into: band.canvas, column: rect.x) {
            drawPlain(into: band.canvas.pixmanImage, frame: PixelRect(size: band.canvas.size), clip: rect,
                      viewportTop: top, focus: lastViewportCentre, keepOnlyClipped: true)
        }
        PixmanDraw.fill(band.canvas.pixmanImage, rect: rect, color: color)
    }
}
