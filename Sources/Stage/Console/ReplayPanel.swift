import Render

/// The replay beside the clip list: its title, the picture fitted 16:9, the time and
/// the transport (Play/Pause, Stop, Full screen).
enum ReplayPanel {
    static func build(_ replay: ClipReplay.Shown, model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        panel.fill(area, theme.panel)
        let inner = PixelRect(x: area.x + theme.gap, y: area.y + theme.gap, width: area.width - theme.gap * 2,
                              height: area.height - theme.gap * 2)
        var y = inner.y
        y += panel.text(replay.title, x: inner.x, y: y, maxWidth: inner.width, singleLine: true) + theme.gap
        let transportTop = inner.maxY - theme.rowHeight
        let height = min(inner.width * 9 / 16, transportTop - theme.gap - y)
        let width = min(inner.width, height * 16 / 9)
        let picture = PixelRect(x: inner.x + (inner.width - width) / 2, y: y, width: width, height: max(0, height))
        panel.fill(picture, Color(rgb: 0x000000))
        panel.add(model.clips.picture(picture))
        if let failure = replay.failure {
            panel.text(failure, x: picture.x + theme.gap, y: picture.y + theme.gap, size: theme.smallTextSize,
                       color: Color(rgb: 0xffffff), maxWidth: picture.width - theme.gap * 2)
        }
        transport(replay, panel: panel, area: PixelRect(x: inner.x, y: transportTop, width: inner.width,
                                                        height: theme.rowHeight))
    }

    /// Play/Pause, Stop, Full screen and "0:03 / 0:12".
    static func transport(_ replay: ClipReplay.Shown, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        let buttons: [(WidgetID, String)] = [
            ("clips:play", replay.playing ? "Pause" : "Play"), ("clips:stop", "Stop"),
            ("clips:full", replay.fullScreen ? "Exit full screen" : "Full screen"),
        ]
        let timeWidth = panel.width(of: "00:00 / 00:00", size: theme.smallTextSize) + theme.gap * 2
        let width = (area.width - timeWidth - theme.gap * buttons.count) / buttons.count
        for (index, button) in buttons.enumerated() {
            panel.button(button.0, button.1,
                         in: PixelRect(x: area.x + index * (width + theme.gap), y: area.y, width: width,
                                       height: area.height),
                         style: index == 0 ? .primary : .normal)
        }
        let total = replay.duration.isFinite ? ClipsScreen.duration(replay.duration) : "…"
        panel.text("\(ClipsScreen.duration(replay.position)) / \(total)",
                   in: PixelRect(x: area.maxX - timeWidth, y: area.y, width: timeWidth, height: area.height),
                   alignment: .trailing, size: theme.smallTextSize, color: theme.secondaryText)
    }
}
