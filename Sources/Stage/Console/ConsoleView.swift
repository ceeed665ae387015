import Prompter
import Render

/// Builds the operator console for one inner frame: the tabs, the screen, an open
/// dialog, the problem banner and the mouse pointer, all upright.
package enum ConsoleView {
    /// A panel of the display's size with the console built on it.
    package static func panel(_ model: ConsoleModel, size: PixelSize, labels: LabelCache) -> WidgetPanel {
        labels.beginFrame()
        let panel = WidgetPanel(size: size, theme: WidgetTheme(displayHeight: size.height), labels: labels,
                                focus: model.state.focus)
        build(model, panel: panel)
        return panel
    }

    package static func build(_ model: ConsoleModel, panel: WidgetPanel) {
        let theme = panel.theme
        panel.fill(panel.bounds, theme.background)
        let header = PixelRect(x: 0, y: 0, width: panel.size.width, height: theme.rowHeight + 2 * theme.gap)
        tabs(model, panel: panel, header: header)
        var body = PixelRect(x: theme.gap * 2, y: header.maxY + theme.gap, width: panel.size.width - theme.gap * 4,
                             height: panel.size.height - header.maxY - theme.gap * 2)
        // The banner first: the screen above it ends where it begins.
        let bannerTop = ProblemBanner.build(model.problems, panel: panel)
        if bannerTop < panel.size.height { body.height = max(0, bannerTop - theme.gap - body.y) }
        switch model.state.screen {
        case .library: LibraryScreen.build(model, panel: panel, area: body)
        case .prompter: OperatorScreen.build(model, panel: panel, area: body)
        case .settings: SettingsScreen.build(model, panel: panel, area: body)
        case .editor: EditorScreen.build(model, panel: panel, area: body)
        case .game: GameScreen.build(model, panel: panel, area: body)
        case .scoreboard: ScoreboardScreen.build(model, panel: panel, area: body)
        case .clips: ClipsScreen.build(model, panel: panel, area: body)
        }
        if let dialog = model.state.dialog { DialogView.build(dialog, model: model, panel: panel) }
        if let pointer = model.state.pointer { cursor(at: pointer, panel: panel) }
    }

    private static func tabs(_ model: ConsoleModel, panel: WidgetPanel, header: PixelRect) {
        let theme = panel.theme
        panel.fill(header, theme.panel)
        // Every tab on the display, however narrow (at 1024 wide the seventh was half off
        // it, out of a finger's reach): a label that does not fit is shortened instead.
        let count = ConsoleScreen.allCases.count
        let fitted = (header.width - theme.gap * 4 - theme.gap * (count - 1)) / count
        let width = min(max(panel.width(of: "Prompter") + theme.gap * 6, header.width / 10), fitted)
        var x = theme.gap * 2
        for screen in ConsoleScreen.allCases {
            panel.button("tab:\(screen.rawValue)", screen.title,
                         in: PixelRect(x: x, y: theme.gap, width: width, height: theme.rowHeight),
                         isOn: screen == model.state.screen)
            x += width + theme.gap
        }
        let title = model.prompter.scriptTitle ?? "No script open"
        guard header.maxX - x - theme.gap * 4 > Int(theme.textSize * 3) else { return }
        panel.text("\(title) · \(model.transportName)",
                   in: PixelRect(x: x + theme.gap * 2, y: header.y, width: header.maxX - x - theme.gap * 4,
                                 height: header.height),
                   alignment: .trailing, size: theme.smallTextSize, color: theme.secondaryText)
    }

    /// A small arrow made of rows, dark-edged so it shows on any background.
    private static func cursor(at point: PointerPosition, panel: WidgetPanel) {
        let size = max(10, Int(panel.theme.textSize * 0.8))
        let x = Int(point.x), y = Int(point.y)
        for row in 0..<size {
            let width = max(1, row * 2 / 3)
            panel.fill(PixelRect(x: x - 1, y: y + row - 1, width: width + 2, height: 3), Color(rgb: 0x000000))
        }
        for row in 0..<size {
            panel.fill(PixelRect(x: x, y: y + row, width: max(1, row * 2 / 3), height: 1), Color(rgb: 0xffffff))
        }
    }
}
