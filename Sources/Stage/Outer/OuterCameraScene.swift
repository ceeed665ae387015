import Render

/// The talent's display as a camera: the preview, already mirrored and fitted into
/// `preview` (letterboxed, never cropped), with the overlays drawn over it upright.
/// Only the preview pixels are mirrored; the overlays are separate layers, so no
/// text is ever flipped.
package enum OuterCameraScene {
    package static let statusColor = Color.white
    package static let scrim = Color(rgb: 0x000000).withAlpha(150)
    package static let recordingRed = Color(rgb: 0xe5201c)
    package static let stopRed = Color(rgb: 0xb3261e).withAlpha(220)

    /// `labels`: where the texts' layouts are kept between frames (a layout per frame
    /// cost the participant view a third of a second in the virtual rig, under TCG);
    /// `cueLabels` keeps the letters' for good, laid out before the first cue.
    package static func layers(display: PixelSize, preview: Canvas?, message: String?, overlay: CameraOverlay,
                               painter: GlyphPainter?, labels: LabelCache? = nil,
                               cueLabels: LabelCache? = nil) -> [Layer] {
        let frame = PixelRect(size: display)
        var layers: [Layer] = [preview.map { .image($0, x: 0, y: 0) } ?? .fill(frame, .black)]
        guard let painter else { return layers }
        let unit = max(10, min(display.width, display.height) / 30)
        if let message {
            let label = Self.label(message, style: TextStyle(fontSize: Double(unit * 2)), x: 0, y: 0,
                              color: statusColor, painter: painter, labels: labels)
            layers.append(.label(Label(lines: label.lines, x: (display.width - label.width) / 2,
                                       y: display.height / 5, color: statusColor, painter: painter)))
        }
        if let status = overlay.status {
            // The status, and the note in smaller type under it, in one band at the foot.
            let label = Self.label(status, style: TextStyle(fontSize: Double(unit)), x: unit, y: 0,
                                   color: statusColor, maxWidth: display.width - 2 * unit, painter: painter, labels: labels)
            let note = overlay.note.map {
                Self.label($0, style: TextStyle(fontSize: Double(unit * 2 / 3)), x: unit, y: 0, color: statusColor,
                           maxWidth: display.width - 2 * unit, painter: painter, labels: labels)
            }
            let noteHeight = note.map { $0.height + unit / 3 } ?? 0
            let top = display.height - unit * 3 - noteHeight
            layers.append(.fill(PixelRect(x: 0, y: top - unit / 2, width: display.width,
                                          height: label.height + noteHeight + unit), scrim))
            layers.append(.label(Label(lines: label.lines, x: unit, y: top, color: statusColor, painter: painter)))
            if let note {
                layers.append(.label(Label(lines: note.lines, x: unit, y: top + label.height + unit / 3, color: statusColor,
                                           painter: painter)))
            }
        }
        if overlay.stopControl {
            // The participant's one control: a tap anywhere stops, the button says so.
            let label = Self.label("Tap to stop", style: TextStyle(fontSize: Double(unit)), x: 0, y: 0,
                                   color: statusColor, painter: painter, labels: labels)
            let box = PixelRect(x: display.width - label.width - unit * 3, y: display.height / 2 - label.height / 2 - unit,
                                width: label.width + unit * 2, height: label.height + unit * 2)
            layers += CueBadge.rounded(box, radius: unit / 2, color: stopRed)
            layers.append(.label(Label(lines: label.lines, x: box.x + unit, y: box.y + unit, color: statusColor,
                                       painter: painter)))
        }
        if overlay.recording {
            layers += CueBadge.rounded(PixelRect(x: unit, y: unit, width: unit * 2, height: unit * 2),
                                       radius: unit, color: recordingRed)
            layers.append(.label(Self.label("REC", style: TextStyle(fontSize: Double(unit)), x: unit * 4, y: unit + unit / 3,
                                       color: statusColor, painter: painter, labels: labels)))
        }
        if let countdown = overlay.countdown {
            let label = Self.label("\(countdown)", style: TextStyle(fontSize: Double(unit * 4)), x: 0, y: 0,
                              color: statusColor, painter: painter, labels: labels)
            layers.append(.label(Label(lines: label.lines, x: display.width - label.width - unit * 2, y: unit,
                                       color: statusColor, painter: painter)))
        }
        if let cue = overlay.cue {
            layers += CueBadge.layers(letter: cue, in: frame, painter: painter, labels: cueLabels ?? labels)
        }
        return layers
    }

    /// A label laid out through `labels` when given, else afresh.
    static func label(_ text: String, style: TextStyle, x: Int, y: Int, color: Color, maxWidth: Int? = nil,
                      painter: GlyphPainter, labels: LabelCache?) -> Label {
        guard let labels else {
            return Label(text, style: style, x: x, y: y, color: color, maxWidth: maxWidth, painter: painter)
        }
        return Label(lines: labels.lines(text, style: style, maxWidth: maxWidth), x: x, y: y, color: color, painter: painter)
    }
}
