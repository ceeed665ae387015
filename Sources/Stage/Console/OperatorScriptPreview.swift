import Prompter
import Render

/// The operator's copy of the reading text: upright whatever the outer display's
/// mirror, flip or rotation, set smaller so its lines break where the upright
/// talent's text does, with the same reading line and band. It follows the outer
/// text by word, so the line being read is shown even where lines break otherwise:
/// with a quarter turn the talent's column is the display's height, but the copy
/// keeps the upright column, so the operator's view never changes with a transform.
package final class OperatorScriptPreview {
    private let fonts: FontLibrary
    private let painter: GlyphPainter
    private var text: ReadingText?
    /// The operator's copy needs a screen or two of pieces, not the outer's budget:
    /// 12 MB, or three of its rectangles on a display so large that is less (a 4K
    /// console's copy is 15 MB: with 12, every frame rasterized again what the one
    /// before evicted).
    package static func cacheBudgetBytes(for rect: PixelRect) -> Int {
        max(12 << 20, rect.width * rect.height * 4 * 3)
    }

    /// The rows of the last frame's rectangle, for warming the cache around it.
    private var viewportRows = 0

    package init(fonts: FontLibrary, painter: GlyphPainter) {
        self.fonts = fonts
        self.painter = painter
    }

    /// Layers showing `outer`'s text at `offset` (the outer layout's reading-line
    /// offset) inside `rect`, over the reading background.
    package func layers(in rect: PixelRect, outer: ReadingText, outerDisplay: PixelSize, settings: ReadingSettings,
                offset: Double, markerPosition: Double) -> [Layer] {
        let background = Layer.fill(rect, settings.backgroundColor.color)
        guard let outerLayout = outer.layout, rect.width > 8, rect.height > 8, outerDisplay.width > 0 else {
            return [background]
        }
        let budget = Self.cacheBudgetBytes(for: rect)
        if text?.text != outer.text || text?.markup != outer.markup || text?.cacheBudgetBytes != budget {
            text = ReadingText(text: outer.text, markup: outer.markup, fonts: fonts, painter: painter,
                               cacheBudgetBytes: budget)
        }
        guard let text else { return [background] }
        var upright = settings
        upright.mirror = false
        upright.flip = false
        upright.rotation = .none
        let scale = Double(rect.width) / Double(outerDisplay.width)
        do {
            try text.update(settings: upright, display: rect.size, fontScale: scale)
        } catch {
            return [background]
        }
        guard let layout = text.layout, let block = text.block else { return [background] }
        // The same word on the reading line, and as far into its line as the outer text is.
        let innerOffset = ReadingAnchor(layout: outerLayout, offset: offset).offset(in: layout)
        layout.ensureLaidOut(throughY: innerOffset + Double(rect.height) * 2)
        viewportRows = rect.height
        let readingRow = ReadingMarker.readingRow(viewportHeight: rect.height, position: markerPosition)
        var marker = ReadingMarker(frame: rect, transform: block.transform, position: markerPosition,
                                   thickness: Int(layout.lineHeight.rounded()), textColor: settings.textColor.color)
        marker.bandInText = true
        return [background, .textBlock(block, frame: rect, viewportTop: Int(innerOffset.rounded()) - readingRow,
                           highlight: marker.highlight),
                .readingMarker(marker)]
    }

    /// The copy's text block, for tests and figures.
    package var block: ChunkedTextBlock? { text?.block }

    /// Idle time: rasterizes one more piece of the copy near what it shows, until its
    /// budget is full, so its memory settles early as the outer text's does.
    package func prepareAhead() -> Bool {
        guard let block = text?.block, viewportRows > 0 else { return false }
        return block.prepareAhead(viewportRows: SceneRenderer.prepareReach(viewportRows: viewportRows, block: block),
                                  limit: SceneRenderer.piecesPerTurn(block)) > 0
    }
}
