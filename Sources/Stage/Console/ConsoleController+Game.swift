/// The Game screen's keys: Up and Down move through its controls, Left and Right step
/// a setup value, Enter or Space activates, Escape goes back to the prompter.
extension ConsoleController {
    func gameKey(_ press: KeyPress) -> Bool {
        switch press.symbol {
        case .up, .down:
            if let next = targets.next(after: state.focus, backwards: press.symbol == .up) { focus(next.id) }
            return true
        case .left, .right:
            guard let focus = state.focus, focus.hasPrefix("game:set:") else { return true }
            gameAction(focus, press.symbol == .left ? -1 : 1)
            return true
        case .enter, .space:
            if let focus = state.focus { activate(focus) }
            return true
        case .escape:
            show(controller.script == nil ? .library : .prompter)
            return true
        default:
            // The prompter's bound keys do nothing while the game is open.
            return press.action != nil
        }
    }

    /// The game changed: the Game screen draws again.
    package func gameChanged() {
        guard state.screen == .game else { return }
        generation += 1
        onChange()
    }
}
