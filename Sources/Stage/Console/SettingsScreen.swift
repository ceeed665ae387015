import Foundation
import Prompter
import Render

/// Every reading setting as a row stepped with Left and Right (or a click on a
/// row's left or right half). Changes apply to the outer display at once, while
/// playing too, and are saved as they are made.
package enum SettingsScreen {
    package enum Item: String, CaseIterable {
        case fontFamily = "font", fontSize = "size", lineSpacing = "spacing", margin = "margins"
        case textColor = "text-color", backgroundColor = "background", mirror, flip, rotation, speed
        case countdown, endOfScript = "end-of-script", outerTimer = "outer-timer"
        case readingLine = "reading-line", pointer
        case alignment = "align", weight, directionColor = "direction-color", highlightColor = "highlight-color"

        package var id: WidgetID { "setting:" + rawValue }

        package var label: String {
            switch self {
            case .fontFamily: "Font"
            case .fontSize: "Size"
            case .lineSpacing: "Line spacing"
            case .margin: "Margins"
            case .textColor: "Text colour"
            case .backgroundColor: "Background"
            case .mirror: "Mirror"
            case .flip: "Flip upside down"
            case .rotation: "Rotation"
            case .speed: "Speed"
            case .countdown: "Countdown before roll"
            case .endOfScript: "End of script"
            case .outerTimer: "Time left on outer"
            case .readingLine: "Reading line"
            case .pointer: "Pointer"
            case .alignment: "Alignment"
            case .weight: "Weight"
            case .directionColor: "Directions"
            case .highlightColor: "Highlight"
            }
        }

        package func value(_ settings: ReadingSettings) -> String {
            switch self {
            case .fontFamily: settings.fontFamily.familyName
            case .fontSize: "\(settings.fontSize) px"
            case .lineSpacing: String(format: "%.1f", settings.lineSpacing)
            case .margin: "\(Int(settings.margin.rounded())) %"
            case .textColor: settings.textColor.rawValue.capitalized
            case .backgroundColor: settings.backgroundColor.rawValue.capitalized
            case .mirror: settings.mirror ? "On" : "Off"
            case .flip: settings.flip ? "On" : "Off"
            case .rotation: "\(settings.rotation.degrees)°"
            case .speed: "\(settings.speed) px/s"
            case .countdown: settings.countdown == 0 ? "Off" : "\(settings.countdown) s"
            case .endOfScript: settings.endOfScript.rawValue.capitalized
            case .outerTimer: settings.outerTimer ? "On" : "Off"
            case .readingLine: settings.readingLine == .marker ? "As rig.toml" : settings.readingLine.rawValue.capitalized
            case .pointer: settings.pointer == .both ? "Band and arrows" : settings.pointer.rawValue.capitalized
            case .alignment: settings.alignment.rawValue.capitalized
            case .weight: settings.weight.rawValue.capitalized
            case .directionColor: settings.directionColor.rawValue.capitalized
            case .highlightColor: settings.highlightColor.rawValue.capitalized
            }
        }

        package func swatch(_ settings: ReadingSettings) -> Color? {
            switch self {
            case .textColor: settings.textColor.color
            case .backgroundColor: settings.backgroundColor.color
            case .directionColor: settings.directionColor.color
            case .highlightColor: settings.highlightColor.color
            default: nil
            }
        }

        /// One step up (`+1`) or down (`-1`); lists wrap around, numbers stop at their range.
        package func step(_ settings: inout ReadingSettings, by delta: Int) {
            switch self {
            case .fontFamily: settings.fontFamily = cycled(settings.fontFamily, delta)
            case .fontSize: settings.fontSize += delta * PrompterKeys.fontStep
            case .lineSpacing: settings.lineSpacing = ((settings.lineSpacing + Double(delta) * 0.1) * 10).rounded() / 10
            case .margin: settings.margin = (settings.margin + Double(delta)).rounded()
            case .textColor: settings.textColor = cycled(settings.textColor, delta)
            case .backgroundColor: settings.backgroundColor = cycled(settings.backgroundColor, delta)
            case .mirror: settings.mirror.toggle()
            case .flip: settings.flip.toggle()
            case .rotation: settings.rotation = cycled(settings.rotation, delta)
            case .speed: settings.speed += delta * ScrollSpeed.step
            case .countdown: settings.countdown += delta
            case .endOfScript: settings.endOfScript = cycled(settings.endOfScript, delta)
            case .outerTimer: settings.outerTimer.toggle()
            case .readingLine: settings.readingLine = cycled(settings.readingLine, delta)
            case .pointer: settings.pointer = cycled(settings.pointer, delta)
            case .alignment: settings.alignment = cycled(settings.alignment, delta)
            case .weight: settings.weight = cycled(settings.weight, delta)
            case .directionColor: settings.directionColor = cycled(settings.directionColor, delta)
            case .highlightColor: settings.highlightColor = cycled(settings.highlightColor, delta)
            }
        }

        private func cycled<T: CaseIterable & Equatable>(_ value: T, _ delta: Int) -> T {
            let all = Array(T.allCases)
            let index = all.firstIndex(of: value) ?? 0
            return all[((index + delta) % all.count + all.count) % all.count]
        }
    }

    /// Runs `rig selftest` on the kiosk's displays; its results replace the console until closed.
    package static let selfTestID: WidgetID = "settings:selftest"

    package static func item(for id: WidgetID) -> Item? {
        Item.allCases.first { $0.id == id }
    }

    package static func build(_ model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        let settings = model.prompter.settings
        var width = min(area.width, max(area.width * 2 / 3, panel.width(of: "Flip upside down") * 4))
        // The remote's panel takes the right side when the remote is on.
        if model.remote != nil { width = min(width, area.width * 11 / 20) }
        var y = area.y
        y += panel.text("Reading settings: they apply to the outer display at once and are saved as you go.",
                        x: area.x, y: y, size: theme.smallTextSize, color: theme.secondaryText, maxWidth: area.width)
        y += theme.gap
        let items = Item.allCases
        let rowHeight = min(theme.rowHeight, max(theme.rowHeight * 2 / 3, (area.maxY - y) / items.count - 2))
        // A short display shows the rows around the focused one (the keys move through
        // all of them), never rows past its bottom edge.
        let fitting = max(1, (area.maxY - y) / (rowHeight + 2))
        let focused = items.firstIndex { $0.id == model.state.focus } ?? 0
        let first = fitting >= items.count ? 0 : min(max(0, focused - fitting / 2), items.count - fitting)
        for item in items[first..<min(items.count, first + fitting)] {
            panel.stepper(item.id, in: PixelRect(x: area.x, y: y, width: width, height: rowHeight), label: item.label,
                          value: item.value(settings), swatch: item.swatch(settings), group: "settings")
            y += rowHeight + 2
        }
        // The right side: the self-test, the hand controllers while one is plugged in,
        // then the remote's phones.
        let x = area.x + width + theme.gap * 4
        var right = PixelRect(x: x, y: area.y, width: area.maxX - x, height: area.height)
        let selfTest = "Self-test"
        panel.button(selfTestID, selfTest, in: PixelRect(x: x, y: right.y, width: min(right.width, panel.width(of: selfTest) + theme.gap * 6),
                                                         height: theme.rowHeight), group: "selftest")
        var used = theme.rowHeight + theme.gap / 2
        used += panel.text(model.state.selfTestRefusal
                           ?? "Checks the displays, camera, touch, sound, recording, disk and clock in under a minute.",
                           x: x, y: right.y + used, size: theme.smallTextSize,
                           color: model.state.selfTestRefusal == nil ? theme.secondaryText : theme.accent,
                           maxWidth: right.width) + theme.gap * 2
        right = PixelRect(x: x, y: right.y + used, width: right.width, height: max(0, right.height - used))
        if let controllers = model.controllers, !controllers.controllers.isEmpty {
            let used = ControllersPanel.build(controllers, panel: panel, area: right) + theme.gap * 2
            right = PixelRect(x: x, y: right.y + used, width: right.width, height: max(0, right.height - used))
        }
        if let remote = model.remote {
            RemotePanel.build(remote, panel: panel, area: right)
        }
    }
}
