/// The reading marker: a faint band across the text where the line being read
/// sits, with a small arrow at each end pointing at it.
///
/// Its place follows the reading line through the text transform (flipped text
/// puts the reading line at the other end of the display, rotated text turns
/// the band upright), but its pixels are drawn in display space, never through
/// the transform. The shape is symmetric, so a mirror or flip of the text
/// yields exactly the mirrored or flipped marker.
public struct ReadingMarker: Sendable {
    /// The band, in display coordinates.
    public var band: PixelRect
    /// True when the band runs across the display (text not rotated 90/270).
    public var runsAcross: Bool
    public var bandColor: Color
    public var arrowColor: Color

    public init(band: PixelRect, runsAcross: Bool, bandColor: Color, arrowColor: Color) {
        self.band = band
        self.runsAcross = runsAcross
        self.bandColor = bandColor
        self.arrowColor = arrowColor
    }

    /// Default height of the reading line: one third from the top of the text.
    public static let defaultPosition = 1.0 / 3.0

    /// The row of the text viewport where the reading line sits.
    public static func readingRow(viewportHeight: Int, position: Double) -> Int {
        Int((Double(viewportHeight) * min(max(position, 0), 1)).rounded())
    }

    /// A marker for text shown in `frame` with `transform`; the band is
    /// `thickness` text rows starting at the reading row.
    public init(frame: PixelRect, transform: TextTransform, position: Double = defaultPosition,
                thickness: Int, textColor: Color) {
        let viewport = transform.textSize(forDisplay: frame.size)
        let row = ReadingMarker.readingRow(viewportHeight: viewport.height, position: position)
        let textRect = PixelRect(x: 0, y: row, width: viewport.width, height: max(2, thickness))
        let band = transform.displayRect(ofText: textRect, viewport: viewport)
            .offsetBy(dx: frame.x, dy: frame.y).intersection(frame)
        self.init(band: band, runsAcross: !transform.swapsAxes,
                  bandColor: textColor.withAlpha(28), arrowColor: textColor.withAlpha(200))
    }

    var bounds: PixelRect { band }

    func draw(into image: OpaquePointer, dx: Int, dy: Int, clip: PixelRect) {
        let rect = band.offsetBy(dx: dx, dy: dy)
        PixmanDraw.fill(image, rect: rect.intersection(clip), color: bandColor)
        // Arrows: as deep as 40 % of the band, at most 28 px, pointing inward. They
        // are drawn as rows of rectangles (with one partly covered pixel per row
        // for a smooth edge) so the marker is exactly symmetric pixel for pixel:
        // pixman's sampled triangle edges are not.
        let thickness = runsAcross ? rect.height : rect.width
        let depth = min(28.0, Double(thickness) * 0.4), half = depth * 0.75
        let start = runsAcross ? rect.y : rect.x
        let middle = Double(start) + Double(thickness) / 2
        for row in Int((middle - half).rounded(.down))..<Int((middle + half).rounded(.up)) {
            let reach = depth * (1 - abs(Double(row) + 0.5 - middle) / half)
            guard reach > 0 else { continue }
            let whole = Int(reach), part = reach - Double(whole)
            let edge = arrowColor.withAlpha(UInt8((Double(arrowColor.alpha) * part).rounded()))
            for (offset, length, color) in [(0, whole, arrowColor), (whole, 1, edge)] {
                let inward: [PixelRect] = runsAcross
                    ? [PixelRect(x: rect.x + offset, y: row, width: length, height: 1),
                       PixelRect(x: rect.maxX - offset - length, y: row, width: length, height: 1)]
                    : [PixelRect(x: row, y: rect.y + offset, width: 1, height: length),
                       PixelRect(x: row, y: rect.maxY - offset - length, width: 1, height: length)]
                for piece in inward { PixmanDraw.fill(image, rect: piece.intersection(clip), color: color) }
            }
        }
    }
}
