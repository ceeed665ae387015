/// The Game screen's keys: Up and Down move through its controls, Left and Right step
/// a setup value or the finger count, Enter or Space activates, typing edits a
/// player's name on the Setup page, Escape goes back to the prompter.
extension ConsoleController {
    static let playerNamePrefix = "game:player:name:"

    func gameKey(_ press: KeyPress) -> Bool {
        if let index = editedPlayer, nameKey(press, index: index) { return true }
        switch press.symbol {
        case .up, .down:
            if let next = targets.next(after: state.focus, backwards: press.symbol == .up) { focus(next.id) }
            return true
        case .left, .right:
            guard let focus = state.focus, focus.hasPrefix("game:set:") || focus == "game:param:fingers" else { return true }
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

    /// The roster index whose name field has the focus.
    private var editedPlayer: Int? {
        guard let focus = state.focus, focus.hasPrefix(Self.playerNamePrefix) else { return nil }
        return Int(focus.dropFirst(Self.playerNamePrefix.count))
    }

    /// Typing and Backspace in a name field change the Setup page's draft; the game
    /// checks the names when the host starts it.
    private func nameKey(_ press: KeyPress, index: Int) -> Bool {
        guard var draft = state.gameDraft, draft.players.indices.contains(index) else { return false }
        if press.symbol == .backspace {
            if !draft.players[index].isEmpty { draft.players[index].removeLast() }
        } else if let text = press.text, press.symbol != .enter, press.symbol != .tab, press.symbol != .escape,
                  !press.modifiers.contains(.control), text.unicodeScalars.allSatisfy({ $0.value >= 0x20 }) {
            guard draft.players[index].count < 40 else { return true }
            draft.players[index] += text
        } else {
            return false
        }
        update { $0.gameDraft = draft }
        return true
    }

    /// The game changed: the Game screen draws again.
    package func gameChanged() {
        guard state.screen.isGame else { return }
        onChange()
    }
}
