/// A small upright badge: a nearly opaque box with cut corners with a symbol, e.g. the
/// "paused" badge the outer display shows after a tap. Never transformed.
public struct Badge: Equatable, Sendable {
    public enum Symbol: Sendable {
        /// Two vertical bars.
        case pause
    }

    public var rect: PixelRect
    public var symbol: Symbol
    public var boxColor: Color
    public var symbolColor: Color

    public init(rect: PixelRect, symbol: Symbol, boxColor: Color, symbolColor: Color) {
        self.rect = rect
        self.symbol = symbol
        self.boxColor = boxColor
        self.symbolColor = symbolColor
    }

    /// The paused badge in the top-right corner of `frame`, sized to the display.
    public static func paused(in frame: PixelRect, textColor: Color, background: Color) -> Badge {
        let side = max(28, min(frame.width, frame.height) / 8)
        let inset = side / 3
        let rect = PixelRect(x: frame.maxX - side - inset, y: frame.y + inset, width: side, height: side)
        // A box a little lighter (or darker) than the background, nearly opaque, so
        // the symbol reads over scrolling text whatever the colour preset.
        return Badge(rect: rect, symbol: .pause, boxColor: background.mixed(with: textColor, 0.22).withAlpha(235),
                     symbolColor: textColor)
    }

    var bounds: PixelRect { rect }

    func draw(into image: OpaquePointer, dx: Int, dy: Int, clip: PixelRect) {
        let box = rect.offsetBy(dx: dx, dy: dy)
        // Cut corners: the box as a cross of two rectangles.
        let radius = max(2, box.width / 6)
        PixmanDraw.fill(image, rect: PixelRect(x: box.x + radius, y: box.y,
                                               width: box.width - 2 * radius, height: box.height)
                            .intersection(clip), color: boxColor)
        for side in [box.x, box.maxX - radius] {
            PixmanDraw.fill(image, rect: PixelRect(x: side, y: box.y + radius, width: radius,
                                                   height: box.height - 2 * radius)
                                .intersection(clip), color: boxColor)
        }
        switch symbol {
        case .pause:
            let barWidth = max(2, box.width / 6), barHeight = box.height / 2
            let top = box.y + (box.height - barHeight) / 2
            let gap = barWidth
            let left = box.x + (box.width - 2 * barWidth - gap) / 2
            for x in [left, left + barWidth + gap] {
                PixmanDraw.fill(image, rect: PixelRect(x: x, y: top, width: barWidth, height: barHeight)
                                    .intersection(clip), color: symbolColor)
            }
        }
    }
}
