import Render

/// The take's marks, drawn in display coordinates after everything else, so no text
/// transform (mirror, flip, rotation) ever reaches them: a red REC badge in the top
/// left corner while recording, and the countdown's digit large in the middle.
package enum TakeOverlay {
    package static let red = Color(rgb: 0xe5201c)
    /// Opaque, so what is under a mark never shows through it: a mark looks the same
    /// over any text in any transform.
    package static let backing = Color(rgb: 0x1c1c1e)

    package static func unit(_ display: PixelSize) -> Int { max(10, min(display.width, display.height) / 30) }

    /// Where the mark is drawn (the REC badge's width depends on the font).
    package static func countdownBox(_ display: PixelSize) -> PixelRect {
        let side = min(display.width, display.height) / 2
        return PixelRect(x: (display.width - side) / 2, y: (display.height - side) / 2, width: side, height: side)
    }

    /// Top left on the talent's display; top right on the operator's, clear of the tabs.
    package static func recordingBox(_ display: PixelSize, labelWidth: Int, atRight: Bool) -> PixelRect {
        let unit = unit(display)
        let width = unit * 3 + labelWidth
        return PixelRect(x: atRight ? display.width - unit - width : unit, y: unit, width: width, height: unit * 2)
    }

    package static func layers(_ take: TakeShown, display: PixelSize, painter: GlyphPainter?,
                               atRight: Bool = false) -> [Layer] {
        guard let painter else { return [] }
        let unit = unit(display)
        switch take {
        case .none:
            return []
        case .recording:
            let label = Label("REC", style: TextStyle(fontSize: Double(unit) * 1.2), x: 0, y: 0, color: .white,
                              painter: painter)
            let badge = recordingBox(display, labelWidth: label.width, atRight: atRight)
            var layers = CueBadge.rounded(badge, radius: unit / 2, color: backing)
            layers += CueBadge.rounded(PixelRect(x: badge.x + unit / 2, y: badge.y + unit / 2, width: unit,
                                                 height: unit), radius: unit / 2, color: red)
            layers.append(.label(Label(lines: label.lines, x: badge.x + unit * 2,
                                       y: badge.y + (badge.height - label.height) / 2, color: .white, painter: painter)))
            return layers
        case let .countdown(seconds):
            let box = countdownBox(display)
            let side = box.width
            var layers = CueBadge.rounded(box, radius: side / 2, color: backing)
            let label = Label("\(seconds)", style: TextStyle(fontSize: Double(side) * 0.6, lineSpacing: 1.0), x: 0, y: 0,
                              color: .white, painter: painter)
            layers.append(.label(Label(lines: label.lines, x: box.x + (side - label.width) / 2,
                                       y: box.y + (side - label.height) / 2, color: .white, painter: painter)))
            return layers
        }
    }
}
