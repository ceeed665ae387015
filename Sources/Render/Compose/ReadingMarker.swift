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
        // Arrows: as deep as 40 % of the band, at most 28 px, pointing inward. Their
        // coverage is computed here row by row (one partly covered pixel per row
        // for a smooth edge) into a small A8 mask, so the marker is exactly
        // symmetric pixel for pixel (pixman's sampled triangle edges are not) and
        // each arrow is one composite call.
        let thickness = runsAcross ? rect.height : rect.width
        let depth = min(28.0, Double(thickness) * 0.4), half = depth * 0.75
        guard depth >= 1, let solid = SolidFill(arrowColor) else { return }
        let start = runsAcross ? rect.y : rect.x
        let middle = Double(start) + Double(thickness) / 2
        let firstRow = Int((middle - half).rounded(.down)), endRow = Int((middle + half).rounded(.up))
        let span = Int(depth.rounded(.up)) + 1
        // Coverage by (row along the band's thickness, step inward from the edge).
        var coverage = [UInt8](repeating: 0, count: (endRow - firstRow) * span)
        for row in firstRow..<endRow {
            let reach = depth * (1 - abs(Double(row) + 0.5 - middle) / half)
            guard reach > 0 else { continue }
            let whole = Int(reach)
            for step in 0..<min(whole, span) { coverage[(row - firstRow) * span + step] = 255 }
            if whole < span { coverage[(row - firstRow) * span + whole] = UInt8(((reach - Double(whole)) * 255).rounded()) }
        }
        let rows = endRow - firstRow
        for atEnd in [false, true] {
            let mask: AlphaMask?
            let origin: (x: Int, y: Int)
            if runsAcross {
                mask = AlphaMask(width: span, height: rows) { x, y in coverage[y * span + (atEnd ? span - 1 - x : x)] }
                origin = (atEnd ? rect.maxX - span : rect.x, firstRow)
            } else {
                mask = AlphaMask(width: rows, height: span) { x, y in coverage[x * span + (atEnd ? span - 1 - y : y)] }
                origin = (firstRow, atEnd ? rect.maxY - span : rect.y)
            }
            guard let mask else { continue }
            mask.composite(solid, into: image, x: origin.x, y: origin.y, clip: clip)
        }
    }
}
