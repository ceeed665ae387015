import Render

/// The Clips screen's keys: Up and Down walk the list (Tab the buttons), Left and Right
/// switch between Current game and All saved, Enter replays the selected clip (or
/// activates the focused button), Space plays and pauses, F toggles full screen,
/// E exports, Delete asks to delete, Escape leaves full screen, then the replay, then
/// the screen. Each is a `clips:` action, activated as a click would be, for the stage.
enum ClipsKeys {
    /// What a key asks for, and whether the console used it: the prompter's bound keys
    /// do nothing here (Space must not start the script).
    static func command(for press: KeyPress, focus: WidgetID?) -> (ConsoleCommand, used: Bool) {
        let focus = focus ?? ""
        switch press.symbol {
        case .up, .down, .pageUp, .pageDown:
            // Up and Down always walk the list; Tab walks the buttons.
            let backwards = press.symbol == .up || press.symbol == .pageUp
            return (.activate(backwards ? "clips:previous" : "clips:next"), true)
        case .left, .right:
            return (.activate(press.symbol == .left ? "clips:list:game" : "clips:list:all"), true)
        case .enter:
            return (.activate(focus.hasPrefix("clips:") || focus.hasPrefix("clip:") ? focus : "clips:replay"), true)
        case .space:
            return (.activate("clips:play"), true)
        case .delete:
            return (.activate("clips:delete"), true)
        case .escape:
            return (.activate("clips:escape"), true)
        default:
            guard let text = press.text?.lowercased(), !press.modifiers.contains(.control) else {
                return (.none, press.action != nil)
            }
            let letters: [String: WidgetID] = ["f": "clips:full", "e": "clips:export", "s": "clips:stop"]
            return (letters[text].map(ConsoleCommand.activate) ?? .none, true)
        }
    }
}
