import Render

/// How the console's dialogs open over the screen, take keys and hand the focus back
/// when they close, as changes of the console's state.
enum DialogFlow {
    /// A key while a dialog is open: only its own controls take input. Escape is its
    /// Cancel button; Enter in its field is its confirm.
    static func command(for press: KeyPress, dialog: ConsoleDialog, state: ConsoleState,
                        targets: WidgetTargets) -> ConsoleCommand {
        switch press.symbol {
        case .escape:
            return .activate("dialog:cancel")
        case .tab, .up, .down, .left, .right:
            let backwards = press.symbol == .up || press.symbol == .left || press.modifiers.contains(.shift)
            return targets.next(after: state.focus, backwards: backwards).map { .focus($0.id) } ?? .none
        case .enter:
            return .activate(state.focus == "dialog:field" ? "dialog:confirm" : state.focus ?? "dialog:cancel")
        case .backspace:
            guard let text = dialog.fieldText, !text.isEmpty else { return .none }
            return .change { $0.dialog = dialog.withFieldText(String(text.dropLast())) }
        default:
            guard let text = press.text, let field = dialog.fieldText, !press.modifiers.contains(.control) else { return .none }
            return .change { $0.dialog = dialog.withFieldText(field + text) }
        }
    }

    /// Dismissed: the focus goes back to what the dialog was about.
    static func close(_ dialog: ConsoleDialog, in state: inout ConsoleState) {
        state.dialog = nil
        switch dialog {
        case .renameFolder, .confirmDeleteFolder: state.focus = LibraryScreen.folderID(state.folder)
        case .confirmDeleteClip, .exportClip: state.focus = state.selectedClip.map { "clip:" + $0 }
        case .endGame: state.focus = "game:end"
        case .deleteGameMedia: state.focus = "game:delete-media"
        default: state.focus = state.selectedScript.map { "script:" + $0 }
        }
    }

    /// The first-run card, or its new facts (an address came) while it is open. Another
    /// dialog open keeps its place; the card waits for the next facts.
    static func showFirstRun(_ card: FirstRunCard, in state: inout ConsoleState) {
        switch state.dialog {
        case nil: state.dialog = .firstRun(card); state.focus = "dialog:cancel"
        case .firstRun: state.dialog = .firstRun(card)
        default: break
        }
    }

    /// The update dialog's next card, or nil to take an offer back; an offer waits
    /// while `busy` or another dialog is open (see `ConsoleController.showRigUpdate`).
    static func showRigUpdate(_ card: RigUpdateCard?, busy: Bool, in state: inout ConsoleState) {
        switch state.dialog {
        case .rigUpdate(let shown) where card == nil:
            if shown.isOffer { state.dialog = nil; state.focus = state.selectedScript.map { "script:" + $0 } }
        case nil, .rigUpdate:
            guard let card, !(card.isOffer && busy && state.dialog == nil) else { return }
            if state.dialog != .rigUpdate(card) { state.focus = "dialog:cancel" }
            state.dialog = .rigUpdate(card)
        default: break
        }
    }
}
