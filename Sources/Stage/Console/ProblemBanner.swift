import Render

/// What needs the operator, across the bottom of every console screen: a bad
/// rig.toml, an unplugged monitor, a missing camera, an unreadable script. Never a
/// crash or a blank screen; always a reason, in red.
package enum ProblemBanner {
    package static let color = Color(rgb: 0x7a1f1f)
    package static let textColor = Color(rgb: 0xfff2f2)
    /// More lines than this become "… and N more": the screen above stays usable.
    package static let maxLines = 6

    /// Draws the banner for `problems` and returns its top edge (the panel's height
    /// when there is nothing to say), so the screen above can end there.
    package static func build(_ problems: [String], panel: WidgetPanel) -> Int {
        guard !problems.isEmpty else { return panel.size.height }
        let theme = panel.theme
        let shown = problems.suffix(maxLines)
        let more = problems.count > shown.count ? ["… and \(problems.count - shown.count) more"] : []
        let text = (shown + more).joined(separator: "\n")
        let margin = theme.gap * 2
        let style = TextStyle(fontSize: theme.smallTextSize, lineSpacing: 1.3)
        let lines = panel.labels.lines(text, style: style, maxWidth: panel.size.width - 2 * margin)
        let textHeight = Int(lines.reduce(0) { $0 + $1.height }.rounded(.up))
        let height = min(panel.size.height / 2, textHeight + margin)
        let top = panel.size.height - height
        panel.fill(PixelRect(x: 0, y: top, width: panel.size.width, height: height), color)
        panel.add([.label(Label(lines: lines, x: margin, y: top + margin / 2, color: textColor,
                                painter: panel.labels.painter))])
        return top
    }
}
