import Render

/// The prompter's own marks over a display, drawn in display coordinates after
/// everything else so no text transform (mirror, flip, rotation) reaches them: the
/// countdown before a run large in the middle (as a take's), and on the talent's
/// display the optional remaining-time readout in the top right corner.
package enum PromptingOverlay {
    /// One frame's view; equal values draw equal pixels.
    package struct Shown: Equatable {
        package var countdown: Int?
        /// "3:05" left at this speed, when `outer_timer` is on (outer display only).
        package var remaining: String?

        package static let none = Shown()
    }

    /// Where the remaining-time readout sits on a display of `size`.
    package static func remainingBox(_ size: PixelSize, labelWidth: Int) -> PixelRect {
        let unit = TakeOverlay.unit(size)
        let width = labelWidth + unit * 2
        return PixelRect(x: size.width - unit - width, y: unit, width: width, height: unit * 2)
    }

    package static func layers(_ shown: Shown, display: PixelSize, painter: GlyphPainter?) -> [Layer] {
        guard let painter else { return [] }
        var layers: [Layer] = []
        if let remaining = shown.remaining {
            let unit = TakeOverlay.unit(display)
            let label = Label(remaining, style: TextStyle(fontSize: Double(unit) * 1.2), x: 0, y: 0, color: .white,
                              painter: painter)
            let box = remainingBox(display, labelWidth: label.width)
            layers += CueBadge.rounded(box, radius: unit / 2, color: TakeOverlay.backing)
            layers.append(.label(Label(lines: label.lines, x: box.x + unit, y: box.y + (box.height - label.height) / 2,
                                       color: .white, painter: painter)))
        }
        if let seconds = shown.countdown {
            layers += TakeOverlay.layers(.countdown(seconds), display: display, painter: painter)
        }
        return layers
    }
}
