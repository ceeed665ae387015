import CPixman

/// The reading text as chunks of 24 laid-out lines, rasterized on demand into
/// cached images that are already mirrored/flipped/rotated, so a scrolling
/// frame is a few plain SRC copies and never a per-frame pixel transform.
///
/// The cache holds only pieces near the viewport, within `cacheBudgetBytes` (a
/// screen at each of up to 16 row phases, see `TextCacheBudget`; gray text a byte a
/// pixel, TextPieces). A chunk taller than the budget allows is cut into pieces by
/// height; each piece is cached and evicted on its own.
///
/// A block belongs to one layout (script, style, column width). Changing the
/// transform keeps the layout and drops only the cached pixels; the next frame
/// rasterizes just the pieces it shows (call `prepareAhead` when idle for more).
public final class ChunkedTextBlock {
    public static let linesPerChunk = 24
    public static let defaultCacheBudgetBytes = TextCacheBudget.defaultBytes

    /// Pieces are cached at up to this many row phases, so the text moves by the
    /// exact fraction each frame (issue 38) and is never a blur of two rows. Eighths
    /// were not enough: where the ideal step falls halfway between two of them
    /// (12 px/s at 60 Hz) no choice of phases steps with less than 1/16 px RMS error.
    public static let rowPhases = 16

    /// A frame's text position is known to a 48th of a pixel: every phase count in
    /// `RowPhase.counts` (16, 12, 8, 4, 2, 1) divides it, so a budget that holds
    /// twelve screens of pieces draws at twelve evenly spaced phases rather than eight.
    /// The glyph painter moves outlines by 64ths: a 48th is rounded to the nearest.
    public static let rowFractions = 48

    public let lines: ReadingTextLines
    /// Text-space width: the whole column including both margins.
    public let columnWidth: Int
    /// Left margin: where each line's box starts inside the column.
    public let textInset: Int
    public let textColor: Color
    /// Directions' and highlights' colours (nil: text without marks).
    public let accents: TextAccents?
    public let background: Color
    /// What the pieces and the quarter-turn windows may hold. The band's tinted
    /// strips come on top: one per row phase shown, three band heights each.
    public let cacheBudgetBytes: Int
    /// Rows in one cached piece: small enough that a screen of pieces fits the budget
    /// at each of `rowPhaseLimit` phases.
    public let pieceRows: Int
    /// The most row phases this block caches: what the outer display affords
    /// (`TextCacheBudget.rowPhases(forDisplay:budget:)`) for the scrolling outer text, 1 for
    /// text drawn only at whole rows (the operator's copy), whose pieces then need
    /// not be cut shorter for phases it never shows.
    public let rowPhaseLimit: Int
    /// What a piece holds a pixel in at best, for the budget: 1 when the text and
    /// background are grays (pieces kept as GrayCanvas, but for those whose lines
    /// have a colour of their own), else 4.
    public let pieceBytesPerPixel: Int
    /// The row phases the last frame drawn could choose from (RowPhase): what the
    /// idle warm-up prepares, each phase of each piece, so scrolling finds them cached.
    public private(set) var rowPhasesDrawn = 1
    public var transform: TextTransform { pieces.painter.transform }
    /// Bumped when the same viewport would be drawn with other pixels (a new
    /// transform), so a compositor that kept a frame of this block redraws it.
    public private(set) var drawingGeneration = 0
    /// Pieces rasterized since the block was made (benchmarks and tests watch it).
    public var rasterizedPieceCount: Int { pieces.rasterizedCount }
    /// Of those, the pieces painted into an evicted piece's canvas (TextPieceCache).
    public var reusedCanvasCount: Int { pieces.reusedCanvasCount }

    private let pieces: TextPieces
    private var chunks: TextChunks { pieces.chunks }
    private var cache: TextPieceCache { pieces.cache }
    private var lastViewportCentre = 0

    /// The rows under the marker band, tinted once and kept.
    private let strips = HighlightStrips()

    /// Quarter turns while scrolling: the viewport in display orientation, one per
    /// row phase drawn, taken out of the budget while they exist.
    private let quarterTurns = QuarterTurnWindows()
    /// The size of the last frame drawn turned a quarter and filling its display
    /// (what the idle warm-up makes windows for), nil when the last was not.
    private var turnedFrameSize: PixelSize?
    /// Windows held now (tests).
    var quarterTurnWindowCount: Int { quarterTurns.count }
    /// Bytes the windows hold now, and the pieces alone (tests).
    var quarterTurnWindowBytes: Int { quarterTurns.byteCount }
    var pieceBytes: Int { cache.totalBytes }

    public init(lines: ReadingTextLines, columnWidth: Int, textInset: Int, textColor: Color,
                accents: TextAccents? = nil, background: Color, transform: TextTransform = .identity,
                cacheBudgetBytes: Int = ChunkedTextBlock.defaultCacheBudgetBytes, rowPhases: Int = 1) {
        self.lines = lines
        self.columnWidth = max(1, columnWidth)
        self.textInset = textInset
        self.textColor = textColor
        self.accents = accents
        self.background = background.withAlpha(255)
        self.cacheBudgetBytes = max(cacheBudgetBytes, 1)
        self.rowPhaseLimit = RowPhase.counts.first { $0 <= max(1, rowPhases) } ?? 1
        pieceBytesPerPixel = TextCacheBudget.pieceBytesPerPixel(textColor: textColor, background: background)
        // Six pieces per budget and phase: a screen of pieces at every phase plus the
        // transform scratch fit. Gray ones are cut as colour ones: four times as tall,
        // one took 7-10 ms to paint in a frame (`rig bench --case compose:1920x1080:60:rot90`).
        let rowBytes = self.columnWidth * 4
        self.pieceRows = min(Canvas.maximumSide,
                             max(8, self.cacheBudgetBytes / 6 / rowPhaseLimit / rowBytes))
        let painter = PiecePainter(lines: lines, columnWidth: self.columnWidth, textInset: textInset,
                                   textColor: textColor, accents: accents, background: self.background,
                                   transform: transform)
        pieces = TextPieces(painter: painter, pieceRows: pieceRows, budgetBytes: self.cacheBudgetBytes)
        quarterTurns.gray = pieceBytesPerPixel == 1
    }

    /// Bytes of rasterized pieces held now, with the spare canvases kept for the next
    /// ones (TextPieceCache).
    public var cachedBytes: Int {
        cache.heldBytes + strips.byteCount + quarterTurns.byteCount
    }
    /// The share of `cachedBytes` in the band's strips.
    public var highlightStripBytes: Int { strips.byteCount }
    public var cachedPieceCount: Int { cache.count }

    /// The height of the whole text, once the layout has reached its end.
    public var contentHeight: Int? { chunks.isComplete ? chunks.bottom : nil }

    /// Lays out to the end (if not done yet) and returns the text height.
    public func measureContentHeight() -> Int {
        chunks.measureAll()
    }

    /// Drops every cached piece (they are rasterized again when needed), e.g.
    /// before `rig snapshot` writes its PNG files.
    public func releaseCache() {
        strips.removeAll()
        dropWindows()
        cache.removeAll()
    }

    /// A new orientation keeps the layout and the reading offset; cached pixels
    /// are in the old orientation, so they go.
    public func setTransform(_ newValue: TextTransform) {
        guard newValue != transform else { return }
        turnedFrameSize = nil
        drawingGeneration += 1
        releaseCache()
        pieces.painter.transform = newValue
    }

    /// Draws the text viewport whose top edge is text row `viewportTop` into
    /// `target`, filling `frame` (the display rectangle the text occupies), but
    /// only pixels inside `clip`, with SRC: cached pieces where there is text, the
    /// background elsewhere. The target is never read.
    ///
    /// With a `highlight`, its viewport rows are copied from a tinted strip (the
    /// rows blended towards the highlight colour once, then reused while the text
    /// scrolls through), so a frame still only copies.
    ///
    /// Quarter turns while scrolling copy each display row whole from a window of
    /// the viewport in display orientation, the band blended in as it is copied
    /// (QuarterTurnWindow explains why).
    ///
    /// `rowFraction` (0–47) moves the text up by that many 48ths of a pixel more.
    /// It is drawn from pieces rasterized at that phase, as many phases as the
    /// budget holds a screen of (RowPhase), up to `rowPhaseLimit`; a quarter turn
    /// also keeps a window per phase, so it affords fewer.
    public func draw(into target: OpaquePointer, frame: PixelRect, clip: PixelRect, viewportTop wholeTop: Int,
                     rowFraction: Int = 0, highlight: ReadingHighlight? = nil) {
        draw(into: target, frame: frame, clips: [clip], viewportTop: wholeTop, rowFraction: rowFraction,
             highlight: highlight)
    }

    /// `draw` inside each of `clips` (disjoint), taken at once: a quarter turn copies
    /// its window row by row across all of them.
    public func draw(into target: OpaquePointer, frame: PixelRect, clips: [PixelRect], viewportTop wholeTop: Int,
                     rowFraction: Int = 0, highlight: ReadingHighlight? = nil) {
        rowPhasesDrawn = rowPhases(forFrame: frame.size, top: wholeTop)
        let phase = RowPhase(fraction: rowFraction, top: wholeTop, phases: rowPhasesDrawn)
        if drawTurned(into: target, frame: frame, clips: clips, position: phase, highlight: highlight) { return }
        for clip in clips { drawUnturned(into: target, frame: frame, clip: clip, phase: phase, highlight: highlight) }
    }

    /// A frame drawn from the pieces (with the band from its strip).
    private func drawUnturned(into target: OpaquePointer, frame: PixelRect, clip: PixelRect, phase: RowPhase,
                              highlight: ReadingHighlight?) {
        let viewportTop = phase.top
        guard let highlight, !highlight.rows.isEmpty else {
            drawPlain(into: .image(target), frame: frame, clip: clip, viewportTop: viewportTop,
                      rowFraction: phase.fraction)
            return
        }
        let viewport = transform.textSize(forDisplay: frame.size)
        let bandText = PixelRect(x: 0, y: highlight.rows.lowerBound, width: viewport.width,
                                 height: highlight.rows.count)
        let band = transform.displayRect(ofText: bandText, viewport: viewport).offsetBy(dx: frame.x, dy: frame.y)
        for area in Compositor.subtract([band], from: frame.intersection(clip)) {
            drawPlain(into: .image(target), frame: frame, clip: area, viewportTop: viewportTop,
                      rowFraction: phase.fraction)
        }
        let visibleBand = band.intersection(clip).intersection(frame)
        guard !visibleBand.isEmpty else { return }
        let rows = (top: viewportTop + highlight.rows.lowerBound, bottom: viewportTop + highlight.rows.upperBound)
        guard let strip = strips.strip(covering: rows, color: highlight.color, rowFraction: phase.fraction,
                                       plain: plainRows) else {
            drawPlain(into: .image(target), frame: frame, clip: visibleBand, viewportTop: viewportTop,
                      rowFraction: phase.fraction)
            return
        }
        let stripViewport = PixelSize(width: columnWidth, height: strip.rows)
        let source = transform.displayRect(
            ofText: PixelRect(x: 0, y: rows.top - strip.top, width: columnWidth, height: rows.bottom - rows.top),
            viewport: stripViewport)
        PixmanDraw.copy(strip.canvas.pixmanImage,
                        sourceRect: visibleBand.offsetBy(dx: source.x - band.x, dy: source.y - band.y),
                        into: target, x: visibleBand.x, y: visibleBand.y)
    }

    /// A quarter turn while scrolling copies the frame from its phase's window
    /// (QuarterTurnWindows), filled from the pieces; false when the frame is drawn
    /// from the pieces directly.
    private func drawTurned(into target: OpaquePointer, frame: PixelRect, clips: [PixelRect], position: RowPhase,
                            highlight: ReadingHighlight?) -> Bool {
        let scrollsTurned = transform.swapsAxes && frame.height == columnWidth
        turnedFrameSize = scrollsTurned ? frame.size : nil
        // Fewer phases (a direction in view): the other phases' windows would only hold memory.
        quarterTurns.keep(phases: rowPhasesDrawn)
        // A new window comes out of the budget once it is filled from the pieces
        // cached now: for that one frame the block may hold up to the window's size
        // over its budget, while taking it out first made a 4K quarter turn rasterize
        // again three of the pieces the fill needs.
        let leadingRow = quarterTurns.draw(
            into: target, frame: frame, clips: clips, position: position, highlight: highlight,
            turn: scrollsTurned ? transform : nil, mayMakeWindow: windowsFit(frameSize: frame.size),
            fill: fillWindow(focusTop: position.top))
        // Pieces are needed where text enters the window: keep and prepare those.
        if let leadingRow {
            lastViewportCentre = leadingRow
            // The window's copy blends the band itself: a strip left from a frame drawn
            // without it would only hold memory.
            strips.removeAll()
        }
        // The windows come out of the
        // budget; windows dropped for a new frame size give theirs back.
        fitPiecesToBudget()
        return leadingRow != nil
    }

    /// Draws a window's rows from the pieces at its phase, keeping the pieces where
    /// text enters it for viewport top `focusTop`.
    private func fillWindow(focusTop: Int) -> QuarterTurnWindows.Fill {
        { [unowned self] window, rect, top, fraction in
            drawPlain(into: TextTarget(window.pixels), frame: PixelRect(size: window.pixels.size), clip: rect,
                      viewportTop: top, rowFraction: fraction, focus: window.leadingRow(viewportTop: focusTop),
                      keepOnlyClipped: true)
        }
    }

    /// Whether a window at every phase drawn fits in three fifths of the budget.
    private func windowsFit(frameSize: PixelSize) -> Bool {
        QuarterTurnWindow.byteCount(frameSize: frameSize, bytesPerPixel: windowBytesPerPixel) * rowPhasesDrawn
            <= cacheBudgetBytes / 5 * 3
    }

    /// What a quarter-turn window keeps a pixel in: gray levels while the pieces are
    /// gray and no window has met colour.
    private var windowBytesPerPixel: Int { quarterTurns.gray ? 1 : 4 }

    private func dropWindows() {
        quarterTurns.removeAll()
        fitPiecesToBudget()
    }

    /// The windows come out of the budget and the pieces get the rest. The band's
    /// strips stay on top: counted in, at 4K with six phases they left the pieces
    /// about to scroll in too little room (464 pieces rasterized in 600 frames at
    /// 110 px/s, against 61 with the strips on top).
    private func fitPiecesToBudget() {
        let left = max(0, cacheBudgetBytes - quarterTurns.byteCount)
        guard cache.budgetBytes != left else { return }
        cache.budgetBytes = left
        cache.makeRoom(for: 0, focus: lastViewportCentre, keep: [])
    }

    /// The phases of a frame of `size` from text row `top`: in gray text, as many as
    /// gray pieces afford, but where a line in view has a colour of its own (a
    /// direction) as many as colour pieces afford. Found from the layout alone, so a
    /// frame's damage (`changedArea`) finds the phases each frame was drawn at.
    private func rowPhases(forFrame size: PixelSize, top: Int) -> Int {
        let rows = transform.textSize(forDisplay: size).height
        let gray = pieceBytesPerPixel == 1 && !chunks.hasColour(rowsFrom: top, to: top + rows + 1)
        return TextCacheBudget.rowPhases(forFrame: size, transform: transform, columnWidth: columnWidth,
                                         budget: cacheBudgetBytes, limit: rowPhaseLimit,
                                         pieceBytesPerPixel: gray ? 1 : 4, windowBytesPerPixel: windowBytesPerPixel)
    }

    /// `focus` is the text row whose pieces matter most when the budget is short
    /// (the viewport's centre unless given); `keepOnlyClipped` lets pieces outside
    /// the clip go first (the window draws only the rows entering it). False when
    /// `target` holds gray levels and a piece or the background is in colour.
    @discardableResult
    func drawPlain(into target: TextTarget, frame: PixelRect, clip: PixelRect, viewportTop: Int,
                   rowFraction: Int = 0, focus: Int? = nil, keepOnlyClipped: Bool = false) -> Bool {
        let visibleClip = frame.intersection(clip)
        guard !visibleClip.isEmpty else { return true }
        let viewport = transform.textSize(forDisplay: frame.size)
        lastViewportCentre = focus ?? viewportTop + viewport.height / 2
        let placed = chunks.pieceKeys(fromRow: viewportTop, toRow: viewportTop + viewport.height, rowFraction: rowFraction)
            .map { key, rows in
            let textRect = PixelRect(x: 0, y: rows.top - viewportTop, width: viewport.width,
                                     height: rows.bottom - rows.top)
            return (key: key, rows: rows, displayRect: transform.displayRect(ofText: textRect, viewport: viewport)
                .offsetBy(dx: frame.x, dy: frame.y))
        }
        let visibleKeys = Set(placed.filter { !keepOnlyClipped || $0.displayRect.intersects(visibleClip) }.map(\.key))
        var covered: (top: Int, bottom: Int)?
        for (key, rows, displayRect) in placed {
            covered = (covered?.top ?? rows.top, rows.bottom)
            let visible = displayRect.intersection(visibleClip)
            guard !visible.isEmpty else { continue }
            guard let piece = pieces.piece(for: key, rows: rows, focus: lastViewportCentre, keep: visibleKeys) else {
                guard target.fill(visible, color: background) else { return false }
                continue
            }
            guard target.copy(piece.pixels, sourceRect: visible.offsetBy(dx: -displayRect.x, dy: -displayRect.y),
                              x: visible.x, y: visible.y) else { return false }
            if cache.heldBytes > cache.budgetBytes { cache.remove(key) }
        }
        // Background above the first line and below the last one.
        let viewportRows = (top: viewportTop, bottom: viewportTop + viewport.height)
        let gaps = covered.map { [(viewportRows.top, $0.top), ($0.bottom, viewportRows.bottom)] }
            ?? [(viewportRows.top, viewportRows.bottom)]
        for (top, bottom) in gaps where bottom > top {
            let textRect = PixelRect(x: 0, y: top - viewportTop, width: viewport.width,
                                     height: bottom - top)
            let rect = transform.displayRect(ofText: textRect, viewport: viewport)
                .offsetBy(dx: frame.x, dy: frame.y)
            guard target.fill(rect.intersection(visibleClip), color: background) else { return false }
        }
        return true
    }

    /// Rasterizes up to `limit` missing pieces nearest the last viewport, within
    /// the budget, each at every row phase the last frame could choose from
    /// (`rowPhasesDrawn`): a scroll at any speed lands on them. Meant for idle time
    /// after a frame is presented. Returns how many pieces it rasterized.
    @discardableResult
    public func prepareAhead(viewportRows: Int, limit: Int = 1) -> Int {
        let centre = lastViewportCentre
        var done = 0
        // A band about to run off its strip gets a fresh one now, not in a frame.
        if strips.prepareAhead(plain: plainRows) { done += 1 }
        // A quarter turn's windows first, one a turn: the first frames of a scroll
        // made them otherwise (QuarterTurnWindows.prepare says why).
        if let size = turnedFrameSize, windowsFit(frameSize: size) {
            if quarterTurns.prepare(fractions: phaseFractions, frameSize: size, turn: transform,
                                    fill: fillWindow(focusTop: quarterTurns.lastDrawnTop ?? centre)) {
                fitPiecesToBudget()
                return done + 1
            }
        }
        return done + pieces.prepare(rowsFrom: centre - viewportRows, to: centre + viewportRows + viewportRows / 2,
                                     fractions: phaseFractions, centre: centre, limit: limit)
    }

    /// The row fractions of the phases the last frame could choose from.
    private var phaseFractions: [Int] {
        Array(stride(from: 0, to: Self.rowFractions, by: Self.rowFractions / rowPhasesDrawn))
    }

    /// Text rows [top, top + rows) drawn plain at a row phase into a canvas of
    /// their own, in final orientation: what a band's strip is tinted from.
    private func plainRows(top: Int, rows: Int, rowFraction: Int) -> Canvas? {
        let size = transform.displaySize(forText: PixelSize(width: columnWidth, height: rows))
        guard let canvas = try? Canvas(size: size) else { return nil }
        let centre = lastViewportCentre
        drawPlain(into: .image(canvas.pixmanImage), frame: PixelRect(size: size), clip: PixelRect(size: size),
                  viewportTop: top, rowFraction: rowFraction)
        lastViewportCentre = centre
        return canvas
    }

    /// The display area where the viewport filling `frame` may differ between text
    /// rows `oldTop` at `oldFraction` and `newTop` at `newFraction` (with the same
    /// highlight): the rows where either has ink, each line between the columns its
    /// ink uses, mapped through the transform (for a quarter turn, one area from the
    /// first line to the last: ViewportInk says why). Nil when that is not known (a piece never
    /// rasterized): then all of `frame` may differ. Elsewhere both show the
    /// background, or the band's tint of it, whatever the row phase.
    func changedArea(frame: PixelRect, from oldTop: Int, at oldFraction: Int, to newTop: Int,
                     at newFraction: Int) -> [PixelRect]? {
        let viewport = transform.textSize(forDisplay: frame.size)
        guard viewport.width == columnWidth else { return nil }
        // The rows and phases the frames were drawn at (see draw).
        let oldPhase = RowPhase(fraction: oldFraction, top: oldTop, phases: rowPhases(forFrame: frame.size, top: oldTop))
        let newPhase = RowPhase(fraction: newFraction, top: newTop, phases: rowPhases(forFrame: frame.size, top: newTop))
        func ink(at phase: RowPhase) -> ViewportInk? {
            pieces.ink(top: phase.top, count: viewport.height, fraction: phase.fraction)
        }
        guard let old = ink(at: oldPhase), let new = ink(at: newPhase) else { return nil }
        return new.changedArea(since: old, frame: frame, transform: transform)
    }
}
