import Prompter
import Render

/// The operator's view while prompting: the script upright and smaller with the
/// reading line, progress and times, the transport, the speed, the outer display's
/// state, the camera thumbnail and the controls.
package enum OperatorScreen {
    package static func build(_ model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        let leftWidth = area.width * 58 / 100
        // The bar, the timers line and the marker list under the script.
        let progressHeight = Int(theme.smallTextSize * 3.2) + theme.gap * 4
        let preview = PixelRect(x: area.x, y: area.y, width: leftWidth, height: area.height - progressHeight)
        if model.prompter.scriptID == nil {
            panel.fill(preview, theme.panel)
            panel.text("No script open. Choose one in the Library.", x: preview.x + theme.gap * 2,
                       y: preview.y + theme.gap * 2, color: theme.secondaryText, maxWidth: preview.width - theme.gap * 4)
        } else {
            panel.add(model.scriptPreview(preview))
        }
        progress(model, panel: panel, area: PixelRect(x: area.x, y: preview.maxY + theme.gap, width: leftWidth,
                                                       height: progressHeight - theme.gap))
        let column = PixelRect(x: preview.maxX + theme.gap * 3, y: area.y,
                               width: area.maxX - preview.maxX - theme.gap * 3, height: area.height)
        sidePanel(model, panel: panel, area: column)
    }

    private static func progress(_ model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        let bar = PixelRect(x: area.x, y: area.y, width: area.width, height: theme.gap * 2)
        panel.fill(bar, theme.control)
        panel.fill(PixelRect(x: bar.x, y: bar.y, width: Int(Double(bar.width) * model.progress), height: bar.height),
                   theme.accent)
        OperatorTimers.build(model, panel: panel, area: PixelRect(x: area.x, y: bar.maxY + theme.gap / 2,
                                                                  width: area.width, height: area.maxY - bar.maxY))
    }

    private static func sidePanel(_ model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        var y = area.y
        y += panel.text(model.transportName, x: area.x, y: y, size: theme.titleSize, maxWidth: area.width,
                        singleLine: true)
        let wpm = (model.timers?.wordsPerMinute ?? model.prompter.wordsPerMinute).map { " · \($0) words/min" } ?? ""
        y += panel.text("Speed \(model.prompter.speed) px/s\(wpm)", x: area.x, y: y, maxWidth: area.width,
                        singleLine: true)
        y += theme.gap
        y += panel.text("Outer display: \(model.outerSummary)", x: area.x, y: y, maxWidth: area.width,
                        singleLine: true)
        let outer = model.outer
        let flags = "connected \(yesNo(outer?.available)) · turned on \(yesNo(outer?.enabled))"
            + (outer?.mode.map { " · \($0.width)x\($0.height)" } ?? "")
        y += panel.text(flags, x: area.x, y: y, size: theme.smallTextSize, color: theme.secondaryText,
                        maxWidth: area.width, singleLine: true)
        if let follow = model.follow {
            // Why the engine moves on its own: what was heard and how sure the follow is.
            y += panel.text(follow.line, x: area.x, y: y, size: theme.smallTextSize, color: theme.secondaryText,
                            maxWidth: area.width, singleLine: true)
        }
        y += theme.gap
        if let cameraState = model.cameraState {
            let thumbnail = PixelRect(x: area.x, y: y, width: area.width, height: area.width * 9 / 16 / 2)
            let fitted = PixelRect(x: area.x, y: y, width: thumbnail.height * 16 / 9, height: thumbnail.height)
            panel.fill(fitted, theme.panel)
            panel.add(model.cameraThumbnail(fitted))
            panel.text("Camera: \(cameraState)", x: fitted.maxX + theme.gap * 2, y: y, size: theme.smallTextSize,
                       color: theme.secondaryText, maxWidth: max(1, area.maxX - fitted.maxX - theme.gap * 2))
            y = thumbnail.maxY + theme.gap
        }
        controls(model, panel: panel, area: PixelRect(x: area.x, y: y, width: area.width, height: area.maxY - y))
    }

    /// Two buttons to a row, the speed slider across the whole column.
    private static func controls(_ model: ConsoleModel, panel: WidgetPanel, area: PixelRect) {
        let theme = panel.theme
        let half = (area.width - theme.gap) / 2
        var y = area.y
        func pair(_ left: (WidgetID, String, Bool?), _ right: (WidgetID, String, Bool?)) {
            panel.button(left.0, left.1, in: PixelRect(x: area.x, y: y, width: half, height: theme.rowHeight), isOn: left.2)
            panel.button(right.0, right.1, in: PixelRect(x: area.x + half + theme.gap, y: y, width: half,
                                                         height: theme.rowHeight), isOn: right.2)
            y += theme.rowHeight + theme.gap
        }
        let playing = model.prompter.state == .playing
        pair(("prompter:play", playing ? "Pause" : "Play", nil), ("prompter:stop", "Stop", nil))
        pair(("prompter:slower", "Slower", nil), ("prompter:faster", "Faster", nil))
        let range = ScrollSpeed.range
        let fraction = Double(model.prompter.speed - range.lowerBound) / Double(range.upperBound - range.lowerBound)
        panel.slider("prompter:speed", in: PixelRect(x: area.x, y: y, width: area.width, height: theme.rowHeight),
                     fraction: fraction, label: "Speed \(model.prompter.speed) px/s")
        y += theme.rowHeight + theme.gap
        pair(("prompter:outer", "Show on outer", model.outer?.enabled ?? false),
             ("prompter:blank", "Blank outer", model.prompter.blanked))
        pair(("prompter:framing", "Framing check", model.prompter.mode == .framing),
             ("prompter:settings", "Settings", nil))
        // Pressing Record is the operator's consent to record the talent.
        let record: String = switch model.take {
        case .none: "Record"
        case let .countdown(seconds): "Starting in \(seconds)… (cancel)"
        case .recording: "Stop recording"
        }
        panel.button("prompter:record", record, in: PixelRect(x: area.x, y: y, width: area.width, height: theme.rowHeight),
                     isOn: model.take != .none)
    }

    private static func yesNo(_ flag: Bool?) -> String { flag == true ? "yes" : "no" }
}
