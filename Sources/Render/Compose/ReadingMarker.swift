/// The reading marker: a faint band across the text where the line being read
/// sits, with a small arrow at each end pointing at it.
///
/// Its place follows the reading line through the text transform (flipped text
/// puts the reading line at the other end of the display, rotated text turns
/// the band upright), but its pixels are drawn in display space, never through
/// the transform. The shape is symmetric, so a mirror or flip of the text
/// yields exactly the mirrored or flipped marker.
///
/// The band can be drawn two ways with the same pixels: blended here over
/// whatever is below (`bandInText == false`), or handed to the text block as
/// `highlight`, which keeps a tinted copy of the rows under the band so a frame
/// copies it instead of blending it (the prompter scene does this).
public struct ReadingMarker: Equatable, Sendable {
    /// The band, in display coordinates.
    public var band: PixelRect
    /// True when the band runs across the display (text not rotated 90/270).
    public var runsAcross: Bool
    public var bandColor: Color
    public var arrowColor: Color
    /// The band's rows of the text viewport (for the text block's highlight).
    public var textRows: Range<Int>
    /// The text block draws the band (pass `highlight` to its layer); the marker
    /// then draws only its arrows.
    public var bandInText = false

    public init(band: PixelRect, runsAcross: Bool, bandColor: Color, arrowColor: Color,
                textRows: Range<Int> = 0..<0) {
        self.band = band
        self.runsAcross = runsAcross
        self.bandColor = bandColor
        self.arrowColor = arrowColor
        self.textRows = textRows
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
        let rows = row..<min(viewport.height, row + max(2, thickness))
        let textRect = PixelRect(x: 0, y: rows.lowerBound, width: viewport.width, height: rows.count)
        let band = transform.displayRect(ofText: textRect, viewport: viewport)
            .offsetBy(dx: frame.x, dy: frame.y).intersection(frame)
        self.init(band: band, runsAcross: !transform.swapsAxes, bandColor: textColor.withAlpha(28),
                  arrowColor: textColor.withAlpha(200), textRows: rows)
    }

    /// The band as the text block's highlight.
    public var highlight: ReadingHighlight { ReadingHighlight(rows: textRows, color: bandColor) }

    var bounds: PixelRect { band }

    /// Where the marker blends into the frame.
    var overlayAreas: [PixelRect] {
        guard bandInText, let arrows = ArrowGeometry(band: band, runsAcross: runsAcross) else { return [band] }
        return arrows.rects
    }

    /// With `cache` (the compositor's), the arrow masks are made once, not per frame.
    func draw(into image: OpaquePointer, dx: Int, dy: Int, clip: PixelRect, cache: ArrowMaskCache? = nil) {
        let rect = band.offsetBy(dx: dx, dy: dy)
        if !bandInText { PixmanDraw.fill(image, rect: rect.intersection(clip), color: bandColor) }
        guard let arrows = ArrowGeometry(band: rect, runsAcross: runsAcross),
              let solid = cache?.solidFill(arrowColor) ?? SolidFill(arrowColor) else { return }
        let thickness = runsAcross ? rect.height : rect.width
        for (index, area) in arrows.rects.enumerated() {
            let atEnd = index == 1
            let span = arrows.span
            let make = {
                runsAcross
                    ? AlphaMask(width: span, height: arrows.rows) { x, y in arrows.coverage(row: y, step: atEnd ? span - 1 - x : x) }
                    : AlphaMask(width: arrows.rows, height: span) { x, y in arrows.coverage(row: x, step: atEnd ? span - 1 - y : y) }
            }
            // The coverage depends only on the band's thickness (its position moves the
            // arrows by whole pixels), the direction and the end.
            let key = ArrowMaskCache.Key(width: area.width, height: area.height, thickness: thickness,
                                         runsAcross: runsAcross, atEnd: atEnd)
            let mask = cache.map { $0.mask(key, make: make) } ?? make()
            mask?.composite(solid, into: image, x: area.x, y: area.y, clip: clip)
        }
    }
}

/// The marker's two arrows: as deep as 40 % of the band, at most 28 px, pointing
/// inward. Coverage is computed row by row (one partly covered pixel per row for
/// a smooth edge) into a small A8 mask, so the marker is exactly symmetric pixel
/// for pixel (pixman's sampled triangle edges are not).
private struct ArrowGeometry {
    let depth: Double
    let half: Double
    let middle: Double
    let firstRow: Int
    let rows: Int
    let span: Int
    let rects: [PixelRect]

    init?(band: PixelRect, runsAcross: Bool) {
        let thickness = runsAcross ? band.height : band.width
        depth = min(28.0, Double(thickness) * 0.4)
        half = depth * 0.75
        guard depth >= 1 else { return nil }
        let start = runsAcross ? band.y : band.x
        middle = Double(start) + Double(thickness) / 2
        firstRow = Int((middle - half).rounded(.down))
        rows = Int((middle + half).rounded(.up)) - firstRow
        span = Int(depth.rounded(.up)) + 1
        rects = runsAcross
            ? [PixelRect(x: band.x, y: firstRow, width: span, height: rows),
               PixelRect(x: band.maxX - span, y: firstRow, width: span, height: rows)]
            : [PixelRect(x: firstRow, y: band.y, width: rows, height: span),
               PixelRect(x: firstRow, y: band.maxY - span, width: rows, height: span)]
    }

    /// Coverage of the pixel `step` pixels in from the band's edge, `row` rows
    /// into the arrow.
    func coverage(row: Int, step: Int) -> UInt8 {
        let reach = depth * (1 - abs(Double(firstRow + row) + 0.5 - middle) / half)
        guard reach > 0 else { return 0 }
        let whole = Int(reach)
        if step < whole { return 255 }
        if step == whole { return UInt8(((reach - Double(whole)) * 255).rounded()) }
        return 0
    }
}

/// Rows of the text viewport shown blended towards `color` (the marker band).
public struct ReadingHighlight: Hashable, Sendable {
    public var rows: Range<Int>
    public var color: Color

    public init(rows: Range<Int>, color: Color) {
        self.rows = rows
        self.color = color
    }
}
