import Foundation
import Render

/// The network remote on the Settings screen: "Pair a phone" opens a one-time code for
/// five minutes and shows its address; each paired phone is listed with Revoke; the API
/// keys of rig.toml by name and fingerprint. All of it at the rig, none over the network.
package enum RemotePanel {
    package static let pairID: WidgetID = "remote:pair"
    package static let revokePrefix = "remote:revoke:"

    package static func build(_ remote: RemoteAccessShown, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        var y = area.y
        y += panel.text("Phones and remotes", x: area.x, y: y, size: theme.titleSize, maxWidth: area.width)
        y += theme.gap
        let buttonHeight = theme.rowHeight
        panel.button(pairID, remote.pairingAddress == nil ? "Pair a phone" : "New pairing code",
                     in: PixelRect(x: area.x, y: y, width: min(area.width, panel.width(of: "New pairing code") + theme.gap * 6),
                                   height: buttonHeight), group: "remote")
        y += buttonHeight + theme.gap
        if let address = remote.pairingAddress {
            let until = remote.pairingExpires.map { " until \(clock($0))" } ?? ""
            y += panel.text("Scan with the phone's camera, or open the address, once\(until):", x: area.x, y: y,
                            size: theme.smallTextSize, color: theme.secondaryText, maxWidth: area.width)
            if let qr = remote.pairingQR {
                y += theme.gap
                y += drawQR(qr, panel: panel, x: area.x, y: y, side: min(area.width, (area.maxY - y) * 3 / 5))
                y += theme.gap
            }
            y += panel.text(address, x: area.x, y: y, size: theme.smallTextSize, maxWidth: area.width)
            y += theme.gap
        }
        y += panel.text(remote.devices.isEmpty ? "No phone is paired." : "Paired:", x: area.x, y: y,
                        size: theme.smallTextSize, color: theme.secondaryText, maxWidth: area.width)
        let revokeWidth = panel.width(of: "Revoke") + theme.gap * 4
        for device in remote.devices {
            guard y + buttonHeight <= area.maxY else { break }
            let row = PixelRect(x: area.x, y: y, width: area.width - revokeWidth - theme.gap, height: buttonHeight)
            panel.text("\(device.name) · \(day(device.paired)) · \(device.id)", in: row, size: theme.smallTextSize)
            panel.button(revokePrefix + device.id, "Revoke",
                         in: PixelRect(x: row.maxX + theme.gap, y: y, width: revokeWidth, height: buttonHeight),
                         style: .danger, group: "remote")
            y += buttonHeight + 2
        }
        guard !remote.apiKeys.isEmpty, y + theme.rowHeight <= area.maxY else { return }
        y += theme.gap
        let keys = remote.apiKeys.map { "\($0.name) (\($0.fingerprint))" }.joined(separator: ", ")
        panel.text("API keys in rig.toml: \(keys)", x: area.x, y: y, size: theme.smallTextSize,
                   color: theme.secondaryText, maxWidth: area.width)
    }

    /// The code black on white (`QRMatrix.rects`). Returns its height.
    private static func drawQR(_ qr: QRMatrix, panel: WidgetPanel, x: Int, y: Int, side: Int) -> Int {
        let code = qr.rects(x: x, y: y, side: side)
        panel.fill(code.white, Color(rgb: 0xffffff))
        for rect in code.dark { panel.fill(rect, Color(rgb: 0x000000)) }
        return code.white.height
    }

    /// Times from calendar fields: a DateFormatter made on each console frame of
    /// Settings costs more than the rest of the panel.
    private static func clock(_ date: Date) -> String {
        let parts = Calendar.current.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func day(_ date: Date) -> String {
        let parts = Calendar.current.dateComponents([.day, .month], from: date)
        return "\(parts.day ?? 1) \(months[((parts.month ?? 1) - 1 + 12) % 12]) \(clock(date))"
    }
}
