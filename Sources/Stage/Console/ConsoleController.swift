import Prompter
import Render

/// The operator console's input side: keys, clicks and taps on the inner display
/// become focus moves and activations, applied to the prompter and the library.
/// The screens are rebuilt from state for every frame; this keeps the targets of
/// the frame last shown, so a click acts on what the operator saw.
package final class ConsoleController {
    package let controller: PrompterController
    package private(set) var state = ConsoleState()
    /// The targets of the frame last shown, for clicks, taps and focus moves.
    package private(set) var targets = WidgetTargets()

    /// The buttons' requests, in the rig's one vocabulary (the stage applies them).
    package var request: (ControlRequest) -> ControlReply = { _ in .failure("no stage") }
    /// Whether the operator has the outer display on, for its toggle; the clock, timers.
    package var isOuterEnabled: () -> Bool = { true }
    package var now: () -> Double = { 0 }
    package var schedule: (Double, @escaping () -> Void) -> Void = { _, _ in }
    package var onChange: () -> Void = {}
    /// The Game screen's controls (`game:...`), stepped by `delta` (0: activated).
    package var gameAction: (WidgetID, Int) -> Void = { _, _ in }
    /// The Game screen was shown (true) or left (false): the game opens or closes.
    package var gameShown: (Bool) -> Void = { _ in }
    /// The game is open: Clips is then one of its three destinations, and moving to it
    /// keeps the game.
    package var isGameOpen: () -> Bool = { false }
    /// Clips asked for while the game is open: true when an attempt runs and Clips must
    /// wait (the game's notice says so).
    package var clipsWaitForAttempt: () -> Bool = { false }
    /// The Clips screen's actions (`clips:...`, `clip:ID`), applied by the stage.
    package var clipsAction: (WidgetID) -> Void = { _ in }
    /// "Try the maps" on the Settings screen: hand controllers stop steering while on.
    package var controllersTest: () -> Void = {}
    /// Settings' Self-test button.
    package var selfTestStart: () -> Void = {}
    /// The first-run card was answered: it is not shown again.
    package var firstRunDone: () -> Void = {}
    /// The update dialog was answered: the card, and whether the operator chose Update.
    package var rigUpdateAnswered: (RigUpdateCard, Bool) -> Void = { _, _ in }
    /// The Clips screen was shown (true) or left (false): the list is read, a replay closes.
    package var clipsShown: (Bool) -> Void = { _ in }

    /// What the frame last shown was built with, to measure text where it was clicked.
    private var shownBuild: ConsoleBuild?
    private let library: LibraryBrowser
    private let scripts: ScriptEditorStore
    private var lastMode: PrompterController.Mode
    private var lastOpened = 0

    package init(controller: PrompterController) {
        self.controller = controller
        library = LibraryBrowser(controller: controller)
        scripts = ScriptEditorStore(controller: controller)
        lastMode = controller.mode
        state.screen = controller.script == nil ? .library : .prompter
    }

    package func update(_ body: (inout ConsoleState) -> Void) {
        var next = state
        body(&next)
        guard next != state else { return }
        state = next
        onChange()
    }

    /// An inner frame showed the console as `build` laid it out: clicks act on that.
    package func shown(_ build: ConsoleBuild) {
        targets = build.targets
        shownBuild = build
    }

    /// Follows mode changes made elsewhere (the library key, `rig ctl mode`, opening a script).
    package func controllerChanged() {
        if controller.opened != lastOpened {
            lastOpened = controller.opened
            if controller.script != nil && state.screen == .library && controller.mode != .library { show(.prompter) }
        }
        guard controller.mode != lastMode else { return }
        lastMode = controller.mode
        switch controller.mode {
        case .library: show(.library)
        case .prompter where state.screen == .library && controller.script != nil: show(.prompter)
        // The framing check's controls and the camera thumbnail are on the operator view.
        case .framing: show(.prompter)
        default: break
        }
    }

    /// Files came, went or changed in the scripts folder: the list is drawn again,
    /// a sidebar folder that is gone (renamed or deleted elsewhere) gives way to All
    /// Scripts, and a selection that is gone moves to a script still there.
    package func libraryChanged() {
        library.changed()
        update { library.dropVanishedFolder(in: &$0) }
        selectFirstIfNeeded()
        onChange()
    }

    /// The library for the current sidebar choice and search, read again only after a change.
    package var listing: LibraryListing { library.listing(search: state.search, folder: state.folder) }

    /// The title of the script an open rename or move dialog is about.
    package var dialogScript: String? { library.dialogScript(state.dialog) }

    /// What `rig ctl status` reports of the console, for remote controls and tests.
    package var statusJSON: JSONValue {
        ["screen": .string(state.screen.rawValue), "focus": .optional(state.focus),
         "search": .string(state.search), "selected": .optional(state.selectedScript),
         "dialog": .optional(state.dialog?.statusName), "editing": .optional(state.editor?.scriptID)]
    }

    // MARK: screens

    package func show(_ screen: ConsoleScreen) {
        // Game, Scoreboard and, while the game is open, Clips are one game's destinations:
        // moving between them never leaves it. Clips waits while an attempt runs.
        let gameOpen = isGameOpen()
        if screen == .clips, state.screen != .clips, gameOpen, clipsWaitForAttempt() { return }
        func inGame(_ screen: ConsoleScreen) -> Bool { screen.isGame || (screen == .clips && gameOpen) }
        if state.screen == .editor && screen != .editor { saveEditor() }
        if inGame(state.screen) != inGame(screen) { gameShown(inGame(screen)) }
        if state.screen != screen && (state.screen == .clips || screen == .clips) { clipsShown(screen == .clips) }
        if screen == .editor && state.editor == nil, let id = state.selectedScript ?? controller.script?.id {
            openEditor(id: id)
            return
        }
        update {
            $0.screen = screen
            // A question about this screen goes with it; a card about the rig stays.
            if $0.dialog?.isAboutTheRig != true {
                $0.focus = nil
                $0.dialog = nil
            }
        }
        if screen == .library {
            selectFirstIfNeeded()
        } else if controller.mode == .library, controller.script != nil {
            controller.setMode(.prompter)
            lastMode = .prompter
        }
    }

    // MARK: keys

    /// Returns true when the console used the key; otherwise its bound action applies.
    package func handle(_ press: KeyPress) -> Bool {
        if press.isRepeat && !state.repeats(press) { return press.action == nil }
        if state.pointer != nil { update { $0.pointer = nil } }
        if let dialog = state.dialog {
            perform(DialogFlow.command(for: press, dialog: dialog, state: state, targets: targets))
            return true
        }
        if press.symbol == .tab {
            moveFocus(backwards: press.modifiers.contains(.shift))
            return true
        }
        switch state.screen {
        case .library:
            let (command, used) = library.command(for: press, state: state, targets: targets)
            perform(command)
            return used
        case .prompter: return prompterKey(press)
        case .settings: return settingsKey(press)
        case .editor:
            perform(EditorInput.command(for: press, state: state, targets: targets))
            return true
        case .game, .scoreboard: return gameKey(press)
        case .clips: return clipsKey(press)
        }
    }

    /// Carries out what a key map decided.
    func perform(_ command: ConsoleCommand) {
        switch command {
        case .none: break
        case let .focus(id): focus(id)
        case let .activate(id): activate(id)
        case let .show(screen): show(screen)
        case .leave: show(controller.script == nil ? .library : .prompter)
        case let .open(id): open(id)
        case let .search(query): update { $0.search = query }; selectFirstIfNeeded()
        case let .edit(id): openEditor(id: id)
        case let .libraryEdit(outcome): apply(outcome)
        case let .edited(editor):
            let textChanged = editor.text != state.editor?.text
            update { $0.editor = editor; $0.focus = "editor:text" }
            if textChanged { scripts.autosave(now: now(), schedule: schedule) { [weak self] in self?.saveEditor() } }
        case let .change(body): update(body)
        }
    }

    private func moveFocus(backwards: Bool) {
        guard let next = targets.next(after: state.focus, backwards: backwards) else { return }
        focus(next.id)
    }

    package func focus(_ id: WidgetID?) {
        update {
            $0.focus = id
            if let id, id.hasPrefix("script:") { $0.selectedScript = String(id.dropFirst("script:".count)) }
            if let id, id.hasPrefix("clip:") { $0.selectedClip = String(id.dropFirst("clip:".count)) }
        }
    }

    private func prompterKey(_ press: KeyPress) -> Bool {
        if press.action == .library {
            show(.library)
            return false
        }
        if press.action != nil { return false }
        switch press.symbol {
        case .enter:
            if let focus = state.focus { activate(focus) }
            return true
        case .left, .right:
            guard state.focus == "prompter:speed" else { return false }
            let step = press.symbol == .left ? -ScrollSpeed.step : ScrollSpeed.step
            _ = request(.speed(controller.engine.speed + step))
            return true
        default:
            return false
        }
    }

    private func settingsKey(_ press: KeyPress) -> Bool {
        let item = state.focus.flatMap(SettingsScreen.item(for:))
        switch press.symbol {
        case .up, .down:
            let backwards = press.symbol == .up
            // Row by row through every setting, also those a short display scrolls into view.
            let items = SettingsScreen.Item.allCases
            if let item, let index = items.firstIndex(of: item), items.indices.contains(index + (backwards ? -1 : 1)) {
                focus(items[index + (backwards ? -1 : 1)].id)
                return true
            }
            if let next = targets.neighbour(of: state.focus, backwards: backwards) ?? (item == nil
                ? targets.first(inGroup: "settings") : nil) {
                focus(next.id)
            }
            return true
        case .left, .right, .enter, .space:
            guard let item else {
                if press.symbol == .enter, let focus = state.focus { activate(focus) }
                return press.symbol == .enter
            }
            step(item, by: press.symbol == .left ? -1 : 1)
            return true
        case .escape:
            show(controller.script == nil ? .library : .prompter)
            return true
        default:
            return false
        }
    }

    package func step(_ item: SettingsScreen.Item, by delta: Int) {
        var settings = controller.settings
        item.step(&settings, by: delta)
        if settings.speed != controller.engine.speed { controller.setSpeed(settings.speed, at: now()) }
        controller.updateSettings { $0 = settings }
        onChange()
    }

    // MARK: library

    func selectFirstIfNeeded() {
        update { library.keepSelection(in: &$0) }
    }

    func open(_ id: String) {
        do {
            try controller.open(id: id, at: now())
            update { $0.notice = nil }
            show(.prompter)
        } catch {
            update { $0.notice = "Cannot open \(id): \(error)" }
        }
    }

    /// Shows a library edit's outcome (or why it failed) under the list.
    private func apply(_ edit: LibraryEdit.Outcome?) {
        guard let edit else { return }
        guard edit.worked else {
            update { $0.notice = edit.notice; $0.dialog = nil }
            return
        }
        libraryChanged()
        update {
            $0.notice = edit.notice
            $0.dialog = nil
            if let select = edit.select { $0.selectedScript = select }
            $0.focus = $0.selectedScript.map { "script:" + $0 }
        }
        selectFirstIfNeeded()
        if let after = edit.after { update(after) }
        if edit.thenEdit, let id = state.selectedScript { openEditor(id: id) }
    }

    func libraryAction(_ id: WidgetID) {
        perform(library.action(id, state: state))
    }

    // MARK: editor

    package func openEditor(id: String) {
        guard controller.library != nil else { return }
        saveEditor()
        update { scripts.open(id, in: &$0) }
    }

    /// Writes the edited text if it changed: a moment after typing stops, and when the
    /// editor is left.
    private func saveEditor() {
        guard let editor = state.editor, editor.isDirty, controller.library != nil else { return }
        do {
            try scripts.write(editor)
            update { $0.editor?.markSaved() }
            scripts.written(editor)
        } catch {
            update { $0.notice = "Cannot save \(editor.scriptID): \(error)" }
            KioskLog.error("cannot save \(editor.scriptID): \(error)")
        }
    }

    /// A click in the text: the caret goes to the nearest character of that line.
    func clickEditorLine(_ target: WidgetTarget, x: Double, y: Double) {
        guard let editor = state.editor, let build = shownBuild,
              let placed = EditorInput.caret(editor, clickedAt: x, y: y, on: target, build: build) else { return }
        update { $0.editor = placed; $0.focus = "editor:text" }
    }

    // MARK: dialogs

    func dialogAction(_ id: WidgetID) {
        guard let dialog = state.dialog else { return }
        if id == "dialog:cancel" { return closeDialog(dialog) }
        switch dialog {
        case .confirmDeleteClip, .exportClip:
            clipsAction(id)
        case let .rigUpdate(.offer(offer)) where id == "dialog:confirm":
            update { $0.dialog = .rigUpdate(.installing(version: offer.version)); $0.focus = "dialog:cancel" }
            rigUpdateAnswered(.offer(offer), true)
        case .endGame, .deleteGameMedia:
            // The game's answer: "game:answer:confirm" (delete) or "game:answer:keep".
            update { $0.dialog = nil; $0.focus = nil }
            gameAction("game:answer:" + id.dropFirst("dialog:".count), 0)
        default:
            perform(library.confirm(dialog, id))
        }
    }

    private func closeDialog(_ dialog: ConsoleDialog) {
        update { DialogFlow.close(dialog, in: &$0) }
        switch dialog {
        case .firstRun: firstRunDone()
        case let .rigUpdate(card): rigUpdateAnswered(card, false)
        default: break
        }
    }

    /// The first-run card, or its new facts (an address came) while it is open. Another
    /// dialog open keeps its place; the card waits for the next facts.
    package func showFirstRun(_ card: FirstRunCard) {
        update { DialogFlow.showFirstRun(card, in: &$0) }
    }

    /// The update dialog's next card (the kiosk's; see RigUpdateCard), or nil to take an
    /// offer back (its stick was pulled out). An offer waits while `busy` (the prompter
    /// playing, a take, a game) or another dialog is open: the kiosk offers it again.
    /// The install's progress replaces what the update dialog shows.
    package func showRigUpdate(_ card: RigUpdateCard?, busy: Bool) {
        update { DialogFlow.showRigUpdate(card, busy: busy, in: &$0) }
    }
}
