import Render

/// The outer display in prompter mode, as the bench drives it: the script in a
/// chunked text block, the reading marker over it, composed into an XRGB8888 frame
/// of the display's size. One instance per (display, text size, axis); the
/// transforms that keep the axes share it (a new transform drops only cached pixels).
final class OuterFrameBench {
    /// The reading column is the text-space width less this share on each side; the
    /// Pango peer uses the same geometry (bench/peers/pango_scroll.py).
    static let marginShare = 0.05
    /// 180 px/s at 60 Hz: every frame lands on a new offset.
    static let stepPx = 3

    let display: BenchReport.Display
    let canvas: Canvas
    let layout: TextLayout
    let block: ChunkedTextBlock
    private let compositor = Compositor()
    private var transform: TextTransform
    private var viewportTop = 0

    static func margin(forTextWidth width: Int) -> Int {
        Int((Double(width) * marginShare).rounded())
    }

    init(display: BenchReport.Display, text: String, sizePx: Int, transform: TextTransform,
         fonts: FontLibrary) throws {
        self.display = display
        self.transform = transform
        canvas = try Canvas(width: display.width, height: display.height)
        let textWidth = transform.textSize(forDisplay: PixelSize(width: display.width, height: display.height)).width
        let margin = Self.margin(forTextWidth: textWidth)
        layout = try TextLayout(text: text, style: TextStyle(fontFamily: "Noto Sans", fontSize: Double(sizePx)),
                                columnWidth: Double(textWidth - 2 * margin), fonts: fonts)
        let lines = BenchReadingLines(layout: layout, painter: GlyphPainter(fonts: fonts))
        block = ChunkedTextBlock(lines: lines, columnWidth: textWidth, textInset: margin, textColor: .white,
                                 background: .black, transform: transform)
    }

    var swapsAxes: Bool { transform.swapsAxes }

    func setTransform(_ newValue: TextTransform) {
        precondition(newValue.swapsAxes == transform.swapsAxes, "a rotated block has another column width")
        transform = newValue
        block.setTransform(newValue)
    }

    /// Mid-scroll: the middle of the script at the top of the viewport.
    func scrollToMiddle() {
        viewportTop = block.measureContentHeight() / 2
    }

    func scrollToTop() { viewportTop = 0 }

    /// One outer frame: what the kiosk composes for each vblank while scrolling.
    func composeFrame() {
        let full = PixelRect(x: 0, y: 0, width: display.width, height: display.height)
        var marker = ReadingMarker(frame: full, transform: transform, thickness: Int(layout.lineHeight),
                                   textColor: .white)
        // As the prompter scene does: the text block draws the band, the marker its arrows.
        marker.bandInText = true
        compositor.compose([.fill(full, .black),
                            .textBlock(block, frame: full, viewportTop: viewportTop, highlight: marker.highlight),
                            .readingMarker(marker)], into: canvas)
    }

    /// Between frames, as the kiosk does in idle time after a flip: move on and
    /// rasterize the next piece ahead if one is missing. Not part of a frame's time.
    func advance() {
        viewportTop += Self.stepPx
        let rows = transform.textSize(forDisplay: PixelSize(width: display.width, height: display.height)).height
        block.prepareAhead(viewportRows: rows, limit: 1)
    }
}

extension BenchReport.Transform {
    var textTransform: TextTransform {
        TextTransform(mirror: mirror, flip: flip, rotation: TextTransform.Rotation(degrees: rotation) ?? .none)
    }
}
