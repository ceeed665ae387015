/// One thing a scene puts on a display. Scenes return layers bottom to top; the
/// compositor draws them. Only the text block is ever transformed (its cached
/// pieces already are); every other layer is drawn upright.
public enum Layer {
    /// A rectangle of colour: SRC when opaque, blended otherwise.
    case fill(PixelRect, Color)
    /// A copy of an image with its top-left at (x, y) (SRC).
    case image(Canvas, x: Int, y: Int)
    /// The reading text, scrolled so that text row `viewportTop` is the
    /// viewport's top edge, filling `frame`.
    /// With a highlight, those viewport rows are shown tinted (the marker band).
    case textBlock(ChunkedTextBlock, frame: PixelRect, viewportTop: Int, rowFraction: Int = 0,
                   highlight: ReadingHighlight? = nil)
    /// The reading marker: a faint band with an arrow at each end.
    case readingMarker(ReadingMarker)
    /// A small upright badge (e.g. "paused").
    case badge(Badge)
    /// Upright UI text.
    case label(Label)

    /// The display rectangle the layer may touch.
    public var bounds: PixelRect {
        switch self {
        case let .fill(rect, _): return rect
        case let .image(canvas, x, y):
            return PixelRect(x: x, y: y, width: canvas.width, height: canvas.height)
        case let .textBlock(_, frame, _, _, _): return frame
        case let .readingMarker(marker): return marker.bounds
        case let .badge(badge): return badge.bounds
        case let .label(label): return label.bounds
        }
    }

    /// Where a blending layer blends (the compositor composes these areas in
    /// ordinary memory); empty for opaque layers.
    var overlayAreas: [PixelRect] {
        switch self {
        case let .readingMarker(marker): return marker.overlayAreas
        default: return isOpaqueCopy ? [] : [bounds]
        }
    }

    /// True when the layer writes every pixel of `bounds` with SRC and reads
    /// nothing from the destination: it may go straight into a scanout buffer.
    var isOpaqueCopy: Bool {
        switch self {
        case let .fill(_, color): return color.isOpaque
        case .image, .textBlock: return true
        case .readingMarker, .badge, .label: return false
        }
    }

    /// True when drawing `self` now certainly gives the pixels `other` gave when it
    /// was drawn, given the same `drawingGeneration` then and now (FrameDamage checks
    /// that). Only what can be told cheaply counts: an image's pixels may have
    /// changed in place (a camera picture), so an image is never the same; a label is
    /// the same only with the very same laid-out glyphs (a cache hands them out),
    /// never by comparing glyphs one by one.
    func drawsSamePixels(as other: Layer) -> Bool {
        switch (self, other) {
        case let (.fill(rect, color), .fill(otherRect, otherColor)):
            return rect == otherRect && color == otherColor
        case let (.textBlock(block, frame, top, fraction, highlight), .textBlock(otherBlock, otherFrame, otherTop, otherFraction, otherHighlight)):
            return block === otherBlock && frame == otherFrame && top == otherTop && fraction == otherFraction
                && highlight == otherHighlight
        case let (.readingMarker(marker), .readingMarker(otherMarker)):
            return marker == otherMarker
        case let (.badge(badge), .badge(otherBadge)):
            return badge == otherBadge
        case let (.label(label), .label(otherLabel)):
            return label.isSame(as: otherLabel)
        default:
            return false
        }
    }

    /// For the same text block scrolled since `old` (same frame and band, any row
    /// phase): where its pixels may differ; nil when it is not that or the block
    /// cannot tell.
    func changedArea(since old: Layer) -> [PixelRect]? {
        guard case let .textBlock(block, frame, top, fraction, highlight) = self,
              case let .textBlock(oldBlock, oldFrame, oldTop, oldFraction, oldHighlight) = old,
              block === oldBlock, frame == oldFrame, highlight == oldHighlight
        else { return nil }
        return block.changedArea(frame: frame, from: oldTop, at: oldFraction, to: top, at: fraction)
    }

    /// What the layer's pixels depend on beyond its value: a text block's transform
    /// can change while the block stays.
    var drawingGeneration: Int {
        if case let .textBlock(block, _, _, _, _) = self { return block.drawingGeneration }
        return 0
    }

    /// Draws the layer shifted by (dx, dy), touching only `clips` of `image`
    /// (disjoint rectangles). `arrows` keeps the reading marker's arrow masks
    /// between frames.
    func draw(into image: OpaquePointer, dx: Int, dy: Int, clips: [PixelRect], arrows: ArrowMaskCache? = nil) {
        // The text block takes every clip at once (a quarter turn copies by rows).
        if case let .textBlock(block, frame, viewportTop, rowFraction, highlight) = self {
            return block.draw(into: image, frame: frame.offsetBy(dx: dx, dy: dy), clips: clips,
                              viewportTop: viewportTop, rowFraction: rowFraction, highlight: highlight)
        }
        for clip in clips {
            switch self {
            case let .fill(rect, color):
                PixmanDraw.fill(image, rect: rect.offsetBy(dx: dx, dy: dy).intersection(clip), color: color)
            case let .image(canvas, _, _):
                let placed = bounds.offsetBy(dx: dx, dy: dy)
                let visible = placed.intersection(clip)
                PixmanDraw.copy(canvas.pixmanImage,
                                sourceRect: visible.offsetBy(dx: -placed.x, dy: -placed.y),
                                into: image, x: visible.x, y: visible.y)
            case .textBlock:
                break
            case let .readingMarker(marker):
                marker.draw(into: image, dx: dx, dy: dy, clip: clip, cache: arrows)
            case let .badge(badge):
                badge.draw(into: image, dx: dx, dy: dy, clip: clip)
            case let .label(label):
                label.draw(into: image, dx: dx, dy: dy)
            }
        }
    }
}
