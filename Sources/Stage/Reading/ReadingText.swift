import Markup
import Prompter
import Render

/// The script's reading text as the outer display needs it: the layout (shaped
/// and wrapped once per script, style and column width) and the chunked text
/// block (rasterized pieces in the current orientation and colours).
///
/// `update` redoes only what a settings change touches: mirror, flip or a
/// half turn keep layout and block and only drop cached pixels; colours make a
/// new block over the same layout; line spacing reuses the shaped lines; font,
/// size, margins or a quarter turn (the column becomes the display's height)
/// lay the text out again.
package final class ReadingText {
    package let text: String
    package let markup: ReadingMarkup
    package let fonts: FontLibrary
    package let painter: GlyphPainter
    /// What the block's pieces may hold; nil: as the display and the text's colours
    /// ask (TextCacheBudget.automatic).
    package let cacheBudgetBytes: Int?
    /// The most row phases the block may cache (ChunkedTextBlock.rowPhaseLimit): the
    /// outer display's scrolling text has what its budget holds in the block's
    /// colours, a copy drawn at whole rows one.
    package let rowPhases: Int
    package private(set) var layout: TextLayout?
    package private(set) var block: ChunkedTextBlock?
    private var layoutKey: LayoutKey?
    private var blockKey: BlockKey?

    private struct LayoutKey: Equatable {
        package var style: TextStyle
        /// The whole column (margins included) and the text's part of it.
        package var columnWidth: Int
        package var textWidth: Int
    }

    private struct BlockKey: Equatable {
        package var layout: LayoutKey
        package var inset: Int
        package var textColor: Color
        package var accents: TextAccents
        package var background: Color
        package var budget: Int
        package var rowPhases: Int
    }

    /// What a relayout means for the reading position.
    package struct Relayout {
        package let old: TextLayout
        package let new: TextLayout

        /// The offset in the new layout that shows the same word at the reading line.
        package func mapOffset(_ offset: Double) -> Double {
            ReadingAnchor(layout: old, offset: offset).offset(in: new)
        }
    }

    package init(text: String, markup: ReadingMarkup = .none, fonts: FontLibrary, painter: GlyphPainter,
         cacheBudgetBytes: Int? = ChunkedTextBlock.defaultCacheBudgetBytes, rowPhases: Int = 1) {
        self.text = text
        self.markup = markup
        self.rowPhases = rowPhases
        self.fonts = fonts
        self.painter = painter
        self.cacheBudgetBytes = cacheBudgetBytes
    }

    /// Brings layout and block in line with `settings` on a display of `display`
    /// size. Returns the old and new layout when the text was laid out again, so
    /// the engine can keep the reading position (`PrompterEngine.relayout`).
    /// `fontScale` sets the text smaller than the settings say (the operator's copy).
    @discardableResult
    package func update(settings: ReadingSettings, display: PixelSize, fontScale: Double = 1) throws(TextError) -> Relayout? {
        let transform = settings.textTransform
        let columnWidth = transform.textSize(forDisplay: display).width
        let inset = Int((Double(columnWidth) * settings.margin / 100).rounded())
        var style = settings.textStyle
        style.fontSize = max(6, (style.fontSize * fontScale).rounded())
        let newLayoutKey = LayoutKey(style: style, columnWidth: columnWidth,
                                     textWidth: max(1, columnWidth - 2 * inset))
        var relayout: Relayout?
        if newLayoutKey != layoutKey {
            let previous = layout
            let next: TextLayout
            var sameButSpacing = newLayoutKey.style
            sameButSpacing.lineSpacing = layoutKey?.style.lineSpacing ?? sameButSpacing.lineSpacing
            if let previous, let key = layoutKey, key.textWidth == newLayoutKey.textWidth,
               key.style == sameButSpacing {
                next = previous.withLineSpacing(settings.lineSpacing)
            } else {
                next = try TextLayout(text: text, markup: markup, style: newLayoutKey.style,
                                      columnWidth: Double(newLayoutKey.textWidth), fonts: fonts)
            }
            layout = next
            layoutKey = newLayoutKey
            relayout = previous.map { Relayout(old: $0, new: next) }
        }
        guard let layout else { return relayout }
        // Gray text on gray is kept a byte a pixel: four times the phases in the same
        // budget (TextCacheBudget.pieceBytesPerPixel).
        let textColor = settings.textColor.color, background = settings.backgroundColor.color
        let bytesPerPixel = TextCacheBudget.pieceBytesPerPixel(textColor: textColor, background: background)
        let budget = cacheBudgetBytes
            ?? TextCacheBudget.automatic(forDisplay: display, pieceBytesPerPixel: bytesPerPixel)
        let phases = min(rowPhases, TextCacheBudget.rowPhases(forDisplay: display, budget: budget,
                                                              pieceBytesPerPixel: bytesPerPixel))
        let newBlockKey = BlockKey(layout: newLayoutKey, inset: inset, textColor: textColor,
                                   accents: settings.textAccents, background: background, budget: budget,
                                   rowPhases: phases)
        if newBlockKey != blockKey || block == nil {
            block = ChunkedTextBlock(lines: LaidOutTextLines(layout: layout, painter: painter),
                                     columnWidth: columnWidth, textInset: inset,
                                     textColor: newBlockKey.textColor, accents: newBlockKey.accents,
                                     background: newBlockKey.background,
                                     transform: transform, cacheBudgetBytes: budget,
                                     rowPhases: newBlockKey.rowPhases)
            blockKey = newBlockKey
        } else {
            block?.setTransform(transform)
        }
        return relayout
    }

    /// Where the end of the text reaches the reading line, laying out to the end.
    package func contentHeight() -> Double {
        guard let layout else { return 0 }
        layout.layoutAll()
        return layout.totalHeight
    }
}
