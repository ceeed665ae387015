import Media
import Render

/// The game's cue, the one badge of the rig: an upright letter on a rounded badge with
/// a border, large enough to read from the talent's position. The participant view
/// draws it live (a dark letter on yellow, white border); the Visual S/Z export burns
/// the same badge into the recording in its dark style (`picture`), and the host's
/// replay of a clip whose export is not ready draws it over the picture in that style,
/// so what the host checks is what the participant saw, and looks the same before and
/// after the export.
package enum CueBadge {
    package enum Style: Sendable {
        /// The participant view's: a dark letter on yellow with a white border.
        case live
        /// The recording's: a white letter on near-black with a grey border, which reads
        /// over any picture without looking like the rig's live cue.
        case recording

        package var border: Color { self == .live ? .white : Color(rgb: 0x8e8e93) }
        package var fill: Color { self == .live ? Color(rgb: 0xffd60a) : Color(rgb: 0x181818) }
        package var ink: Color { self == .live ? Color(rgb: 0x1c1c1e) : .white }
    }

    package static let border = Style.live.border
    package static let fill = Style.live.fill
    package static let ink = Style.live.ink

    /// The badge's square on a display, or on a picture where it lies on a display:
    /// centred, two fifths of its shorter side.
    package static func box(in area: PixelRect) -> PixelRect {
        let side = max(48, min(area.width, area.height) * 2 / 5)
        return PixelRect(x: area.x + (area.width - side) / 2, y: area.y + (area.height - side) / 2,
                         width: side, height: side)
    }

    package static func layers(letter: Character, in area: PixelRect, painter: GlyphPainter,
                               labels: LabelCache? = nil, style: Style = .live) -> [Layer] {
        let box = box(in: area)
        let side = box.width
        let stroke = max(3, side / 24)
        var layers = rounded(box, radius: side / 6, color: style.border)
        layers += rounded(PixelRect(x: box.x + stroke, y: box.y + stroke, width: side - 2 * stroke,
                                    height: side - 2 * stroke), radius: side / 6 - stroke / 2, color: style.fill)
        let textStyle = TextStyle(fontFamily: "Noto Sans", fontSize: Double(side) * 0.62, lineSpacing: 1.0)
        let probe = OuterCameraScene.label(String(letter), style: textStyle, x: 0, y: 0, color: style.ink,
                                           painter: painter, labels: labels)
        layers.append(.label(Label(lines: probe.lines, x: box.x + (side - probe.width) / 2,
                                   y: box.y + (side - probe.height) / 2, color: style.ink, painter: painter)))
        return layers
    }

    /// The badge for a recording of this size, in the recording's style, as the picture
    /// the export burns in over the cue's interval (its corners outside the rounding
    /// show the video). nil when it cannot be drawn.
    package static func picture(letter: Character, pictureWidth: Int, pictureHeight: Int,
                                painter: GlyphPainter) -> OverlayPicture? {
        let size = PixelSize(width: pictureWidth, height: pictureHeight)
        let box = box(in: PixelRect(size: size))
        // Drawn at the recording's size, as the participant view draws it on its display,
        // then cut out; a key colour the badge never uses marks what is not the badge.
        guard let canvas = try? Canvas(size: size) else { return nil }
        let key: UInt32 = 0xff00ff
        Compositor().compose([.fill(PixelRect(size: size), Color(rgb: key))]
                             + layers(letter: letter, in: PixelRect(size: size), painter: painter, style: .recording),
                             into: canvas)
        var rgba = [UInt8](repeating: 0, count: box.width * box.height * 4)
        for y in 0..<box.height {
            for x in 0..<box.width {
                let rgb = canvas.pixels[(box.y + y) * size.width + box.x + x] & 0xff_ffff
                let index = (y * box.width + x) * 4
                rgba[index] = UInt8(rgb >> 16 & 0xff)
                rgba[index + 1] = UInt8(rgb >> 8 & 0xff)
                rgba[index + 2] = UInt8(rgb & 0xff)
                rgba[index + 3] = rgb == key ? 0 : 255
            }
        }
        return try? OverlayPicture(width: box.width, height: box.height, rgba: rgba, x: box.x, y: box.y)
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
