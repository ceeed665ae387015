/// The Clips screen's keys: Up and Down walk the list (Tab the buttons), Left and Right
/// switch between Current game and All saved, Enter replays the selected clip (or
/// activates the focused button), Space plays and pauses, F toggles full screen,
/// E exports, Delete asks to delete, Escape leaves full screen, then the replay, then
/// the screen. Everything else goes to the stage as `clips:` actions.
extension ConsoleController {
    func clipsKey(_ press: KeyPress) -> Bool {
        let focus = state.focus ?? ""
        switch press.symbol {
        case .up, .down, .pageUp, .pageDown:
            // Up and Down always walk the list; Tab walks the buttons.
            let backwards = press.symbol == .up || press.symbol == .pageUp
            clipsAction(backwards ? "clips:previous" : "clips:next")
        case .left, .right:
            clipsAction(press.symbol == .left ? "clips:list:game" : "clips:list:all")
        case .enter:
            if focus.hasPrefix("clips:") || focus.hasPrefix("clip:") { activate(focus) } else { clipsAction("clips:replay") }
        case .space:
            clipsAction("clips:play")
        case .delete:
            clipsAction("clips:delete")
        case .escape:
            clipsAction("clips:escape")
        default:
            guard let text = press.text?.lowercased(), !press.modifiers.contains(.control) else { return press.action != nil }
            switch text {
            case "f": clipsAction("clips:full")
            case "e": clipsAction("clips:export")
            case "s": clipsAction("clips:stop")
            default: break
            }
        }
        // The prompter's bound keys do nothing here: Space must not start the script.
        return true
    }

    /// The clips or the replay changed: the Clips screen draws again.
    package func clipsChanged() {
        guard state.screen == .clips else { return }
        onChange()
    }
}
