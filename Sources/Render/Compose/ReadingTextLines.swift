/// A line's box in text space: y from the top of the script, in pixels.
public struct ReadingLineBox: Hashable, Sendable {
    public var y: Int
    public var height: Int

    public init(y: Int, height: Int) {
        self.y = y
        self.height = height
    }

    public var bottom: Int { y + height }
}

/// The laid-out script as the chunked text block needs it: line boxes, found
/// lazily (asking for a line may lay out more of the script), and a way to
/// paint one line. The text module's layout and glyph painter provide it.
public protocol ReadingTextLines: AnyObject {
    /// The box of line `index`, laying out more of the script if needed; nil
    /// past the last line.
    func lineBox(at index: Int) -> ReadingLineBox?

    /// Paints line `index` into `image` (a `pixman_image_t *`) with the top-left
    /// of its box at (x, y); x is the left edge of the text column. Parts outside
    /// the image are clipped. `rowFraction` moves the line down by that many 48ths
    /// of a pixel more (a row phase of the scrolling text). `accents` colour the
    /// line's directions and highlights (nil: all in `color`).
    func drawLine(at index: Int, into image: OpaquePointer, x: Int, y: Int, rowFraction: Int, color: Color,
                  accents: TextAccents?)

    /// Whether line `index` draws in a colour of its own (a direction, a highlight),
    /// so its pieces cannot be kept gray (GrayCanvas). Asked of lines already laid out.
    func lineHasColour(at index: Int) -> Bool
}

extension ReadingTextLines {
    /// Lines with no colour of their own, unless they say so.
    public func lineHasColour(at index: Int) -> Bool { false }
}
