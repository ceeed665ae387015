import Render

/// The Settings screen's keys: Up and Down go row by row, Left and Right (Enter, Space)
/// step the focused setting, Enter activates a focused button, Escape leaves.
enum SettingsKeys {
    /// What a key asks for, and whether the console used it.
    static func command(for press: KeyPress, focus: WidgetID?, targets: WidgetTargets) -> (ConsoleCommand, used: Bool) {
        let item = focus.flatMap(SettingsScreen.item(for:))
        switch press.symbol {
        case .up, .down:
            let backwards = press.symbol == .up
            // Row by row through every setting, also those a short display scrolls into view.
            let items = SettingsScreen.Item.allCases
            if let item, let index = items.firstIndex(of: item), items.indices.contains(index + (backwards ? -1 : 1)) {
                return (.focus(items[index + (backwards ? -1 : 1)].id), true)
            }
            let next = targets.neighbour(of: focus, backwards: backwards) ?? (item == nil ? targets.first(inGroup: "settings") : nil)
            return (next.map { .focus($0.id) } ?? .none, true)
        case .left, .right, .enter, .space:
            guard let item else {
                if press.symbol == .enter, let focus { return (.activate(focus), true) }
                return (.none, press.symbol == .enter)
            }
            return (.stepSetting(item, press.symbol == .left ? -1 : 1), true)
        case .escape:
            return (.leave, true)
        default:
            return (.none, false)
        }
    }
}
