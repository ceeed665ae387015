import Game
import Render

/// The Game screen's keys: Up and Down move through its controls, Left and Right step
/// a setup value or the finger count, Enter or Space activates, typing edits the
/// host's or a player's name on the Setup page, Escape goes back to the prompter.
enum GameKeys {
    /// What a key asks for, and whether the console used it: the prompter's bound keys
    /// do nothing while the game is open.
    static func command(for press: KeyPress, state: ConsoleState, targets: WidgetTargets) -> (ConsoleCommand, used: Bool) {
        if let name = editedName(state), let draft = typed(press, into: state.gameDraft, name: name) {
            return (.change { $0.gameDraft = draft }, true)
        }
        switch press.symbol {
        case .up, .down:
            guard let next = targets.next(after: state.focus, backwards: press.symbol == .up) else { return (.none, true) }
            return (.focus(next.id), true)
        case .left, .right:
            guard let focus = state.focus, focus.hasPrefix("game:set:") || focus == "game:param:fingers" else { return (.none, true) }
            return (.gameStep(focus, press.symbol == .left ? -1 : 1), true)
        case .enter, .space:
            return (state.focus.map(ConsoleCommand.activate) ?? .none, true)
        case .escape:
            return (.leave, true)
        default:
            return (.none, press.action != nil)
        }
    }

    /// The draft's name whose field has the focus: the host's or a player's.
    private static func editedName(_ state: ConsoleState) -> WritableKeyPath<GameSetup, String>? {
        guard let focus = state.focus else { return nil }
        if focus == GameSetupScreen.hostNameField { return \GameSetup.host }
        let prefix = GameSetupScreen.playerNamePrefix
        guard focus.hasPrefix(prefix), let index = Int(focus.dropFirst(prefix.count)),
              state.gameDraft?.players.indices.contains(index) == true else { return nil }
        return \GameSetup.players[index]
    }

    /// Typing and Backspace in a name field change the Setup page's draft (nil: the key
    /// is not for the field); the game checks the names when the host starts it.
    private static func typed(_ press: KeyPress, into draft: GameSetup?, name: WritableKeyPath<GameSetup, String>) -> GameSetup? {
        guard var draft else { return nil }
        if press.symbol == .backspace {
            if !draft[keyPath: name].isEmpty { draft[keyPath: name].removeLast() }
        } else if let text = press.text, press.symbol != .enter, press.symbol != .tab, press.symbol != .escape,
                  !press.modifiers.contains(.control), text.unicodeScalars.allSatisfy({ $0.value >= 0x20 }) {
            guard draft[keyPath: name].count < 40 else { return draft }
            draft[keyPath: name] += text
        } else {
            return nil
        }
        return draft
    }
}
