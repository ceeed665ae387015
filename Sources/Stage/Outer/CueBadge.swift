import Render

/// The game's cue: a dark letter on a yellow rounded badge with a white border,
/// large enough to read from the talent's position, always upright.
package enum CueBadge {
    package static let border = Color.white
    package static let fill = Color(rgb: 0xffd60a)
    package static let ink = Color(rgb: 0x1c1c1e)

    package static func layers(letter: Character, display: PixelSize, painter: GlyphPainter,
                               labels: LabelCache? = nil) -> [Layer] {
        let side = max(48, min(display.width, display.height) * 2 / 5)
        let box = PixelRect(x: (display.width - side) / 2, y: (display.height - side) / 2, width: side, height: side)
        let stroke = max(3, side / 24)
        var layers = rounded(box, radius: side / 6, color: border)
        layers += rounded(PixelRect(x: box.x + stroke, y: box.y + stroke, width: side - 2 * stroke,
                                    height: side - 2 * stroke), radius: side / 6 - stroke / 2, color: fill)
        let style = TextStyle(fontFamily: "Noto Sans", fontSize: Double(side) * 0.62, lineSpacing: 1.0)
        let probe = OuterCameraScene.label(String(letter), style: style, x: 0, y: 0, color: ink, painter: painter,
                                           labels: labels)
        layers.append(.label(Label(lines: probe.lines, x: box.x + (side - probe.width) / 2,
                                   y: box.y + (side - probe.height) / 2, color: ink, painter: painter)))
        return layers
    }

    /// A rounded rectangle from opaque fills: the middle band, then one row at a time
    /// for the rounded top and bottom, so it is drawn with plain SRC fills.
    package static func rounded(_ rect: PixelRect, radius: Int, color: Color) -> [Layer] {
        let r = max(1, min(radius, min(rect.width, rect.height) / 2))
        var layers: [Layer] = [.fill(PixelRect(x: rect.x, y: rect.y + r, width: rect.width, height: rect.height - 2 * r), color)]
        for row in 0..<r {
            let dy = Double(r - row) - 0.5
            let inset = r - Int((Double(r * r) - dy * dy).squareRoot().rounded())
            let width = rect.width - 2 * inset
            layers.append(.fill(PixelRect(x: rect.x + inset, y: rect.y + row, width: width, height: 1), color))
            layers.append(.fill(PixelRect(x: rect.x + inset, y: rect.maxY - 1 - row, width: width, height: 1), color))
        }
        return layers
    }
}
