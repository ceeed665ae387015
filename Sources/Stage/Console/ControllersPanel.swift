import Foundation
import Render

/// The hand controllers on the Settings screen: each one's speed map and, live, where
/// its control sits and the speed that asks for; "Try the maps" lets the operator move
/// a controller and read the speeds while the text stays still.
package enum ControllersPanel {
    package static let testID: WidgetID = "controllers:test"

    /// Draws the panel at the top of `area`; returns the height used.
    @discardableResult
    package static func build(_ shown: ControllersShown, panel: WidgetPanel, area: PixelRect) -> Int {
        let theme = panel.theme
        var y = area.y
        y += panel.text("Hand controllers", x: area.x, y: y, size: theme.titleSize, maxWidth: area.width)
        y += theme.gap
        guard !shown.controllers.isEmpty else {
            y += panel.text("None plugged in: a ShuttleXpress, ShuttlePRO or gamepad steers the speed.", x: area.x, y: y,
                            size: theme.smallTextSize, color: theme.secondaryText, maxWidth: area.width)
            return y - area.y
        }
        let title = shown.testing ? "Trying the maps: the text stays still" : "Try the maps"
        panel.button(testID, title, in: PixelRect(x: area.x, y: y, width: min(area.width, panel.width(of: title) + theme.gap * 6),
                                                  height: theme.rowHeight),
                     isOn: shown.testing, group: "controllers")
        y += theme.rowHeight + theme.gap
        for reading in shown.controllers {
            guard y + theme.rowHeight * 2 <= area.maxY else { break }
            let role = shown.steering == reading.id ? " · steering" : ""
            y += panel.text("\(reading.name) (\(reading.kind.rawValue))\(role)", x: area.x, y: y, size: theme.smallTextSize,
                            maxWidth: area.width)
            y += panel.text("\(reading.axis) · \(reading.map)", x: area.x, y: y, size: theme.smallTextSize,
                            color: theme.secondaryText, maxWidth: area.width)
            y += gauge(reading, panel: panel, x: area.x, y: y + 2, width: area.width) + theme.gap
        }
        return y - area.y
    }

    /// A bar from full reverse to full forward with the control's place on it, and the
    /// speed it asks for beside it.
    private static func gauge(_ reading: ControllerReading, panel: WidgetPanel, x: Int, y: Int, width: Int) -> Int {
        let theme = panel.theme
        let speed = reading.speed == 0 ? "rest" : String(format: "%+.0f px/s", reading.speed)
        let labelWidth = panel.width(of: "+300 px/s") + theme.gap
        let bar = PixelRect(x: x, y: y + theme.rowHeight / 3, width: max(20, width - labelWidth - theme.gap),
                            height: max(4, theme.rowHeight / 3))
        panel.fill(bar, theme.control)
        let centre = bar.x + bar.width / 2
        panel.fill(PixelRect(x: centre - 1, y: bar.y - 3, width: 2, height: bar.height + 6), theme.secondaryText)
        let mark = centre + Int((min(max(reading.travel, -1), 1) * Double(bar.width / 2)).rounded())
        panel.fill(PixelRect(x: mark - 3, y: bar.y - 4, width: 7, height: bar.height + 8), theme.accent)
        panel.text(speed, in: PixelRect(x: bar.maxX + theme.gap, y: y, width: labelWidth, height: theme.rowHeight),
                   size: theme.smallTextSize)
        return theme.rowHeight
    }
}
