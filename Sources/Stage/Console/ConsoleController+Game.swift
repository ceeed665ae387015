import Game

/// The Game screen's keys: Up and Down move through its controls, Left and Right step
/// a setup value or the finger count, Enter or Space activates, typing edits the
/// host's or a player's name on the Setup page, Escape goes back to the prompter.
extension ConsoleController {
    func gameKey(_ press: KeyPress) -> Bool {
        if let name = editedName, nameKey(press, name: name) { return true }
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

    /// The draft's name whose field has the focus: the host's or a player's.
    private var editedName: WritableKeyPath<GameSetup, String>? {
        guard let focus = state.focus else { return nil }
        if focus == GameSetupScreen.hostNameField { return \GameSetup.host }
        guard focus.hasPrefix(GameSetupScreen.playerNamePrefix), let index = Int(focus.dropFirst(GameSetupScreen.playerNamePrefix.count)),
              state.gameDraft?.players.indices.contains(index) == true else { return nil }
        return \GameSetup.players[index]
    }

    /// Typing and Backspace in a name field change the Setup page's draft; the game
    /// checks the names when the host starts it.
    private func nameKey(_ press: KeyPress, name: WritableKeyPath<GameSetup, String>) -> Bool {
        guard var draft = state.gameDraft else { return false }
        if press.symbol == .backspace {
            if !draft[keyPath: name].isEmpty { draft[keyPath: name].removeLast() }
        } else if let text = press.text, press.symbol != .enter, press.symbol != .tab, press.symbol != .escape,
                  !press.modifiers.contains(.control), text.unicodeScalars.allSatisfy({ $0.value >= 0x20 }) {
            guard draft[keyPath: name].count < 40 else { return true }
            draft[keyPath: name] += text
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
