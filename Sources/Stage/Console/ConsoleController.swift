import Prompter
import Render

/// The operator console's input side: keys, clicks and taps on the inner display
/// become focus moves and activations. The screens' key maps, `ConsolePress` and
/// `LibraryBrowser` decide; this holds the console's state, switches screens and
/// carries out their commands. The screens are rebuilt from state for every frame;
/// this keeps the targets of the frame last shown, so a click acts on what was seen.
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
    /// The Game screen's controls (`game:...`), stepped by `delta` (0: activated), as the
    /// console stands: what the console changes for them.
    var gameAction: (WidgetID, Int, ConsoleState) -> ConsoleCommand = { _, _, _ in .none }
    /// The Game screen was shown (true) or left (false): the game opens or closes.
    package var gameShown: (Bool) -> Void = { _ in }
    /// The game is open: Clips is then one of its three destinations, and moving to it
    /// keeps the game.
    package var isGameOpen: () -> Bool = { false }
    /// Clips asked for while the game is open: true when an attempt runs and Clips must
    /// wait (the game's notice says so).
    package var clipsWaitForAttempt: () -> Bool = { false }
    /// The Clips screen's actions (`clips:...`, `clip:ID`), applied by the stage, as the
    /// console stands: what the console changes for them.
    var clipsAction: (WidgetID, ConsoleState) -> ConsoleCommand = { _, _ in .none }
    /// "Try the maps" on the Settings screen: hand controllers stop steering while on.
    package var controllersTest: () -> Void = {}
    /// Settings' Self-test button.
    package var selfTestStart: () -> Void = {}
    /// The first-run card was answered: it is not shown again.
    package var firstRunDone: () -> Void = {}
    /// The update dialog was answered: the card, and whether the operator chose Update.
    package var rigUpdateAnswered: (RigUpdateCard, Bool) -> Void = { _, _ in }
    /// The Clips screen was shown (true) or left (false): the list is read (the selection
    /// follows it), a replay closes.
    var clipsShown: (Bool) -> ConsoleCommand = { _ in .none }

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

    // MARK: screens

    package func show(_ screen: ConsoleScreen) {
        // Game, Scoreboard and, while the game is open, Clips are one game's destinations:
        // moving between them never leaves it. Clips waits while an attempt runs.
        let gameOpen = isGameOpen()
        if screen == .clips, state.screen != .clips, gameOpen, clipsWaitForAttempt() { return }
        func inGame(_ screen: ConsoleScreen) -> Bool { screen.isGame || (screen == .clips && gameOpen) }
        if state.screen == .editor && screen != .editor { saveEditor() }
        if inGame(state.screen) != inGame(screen) { gameShown(inGame(screen)) }
        if state.screen != screen && (state.screen == .clips || screen == .clips) { perform(clipsShown(screen == .clips)) }
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

    /// The game changed: the Game screen draws again.
    package func gameChanged() {
        guard state.screen.isGame else { return }
        onChange()
    }

    /// The clips or the replay changed: the Clips screen draws again.
    package func clipsChanged() {
        guard state.screen == .clips else { return }
        onChange()
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
            if let next = targets.next(after: state.focus, backwards: press.modifiers.contains(.shift)) { focus(next.id) }
            return true
        }
        let (command, used) = switch state.screen {
        case .library: library.command(for: press, state: state, targets: targets)
        case .prompter: PrompterControls.command(for: press, focus: state.focus, speed: controller.engine.speed)
        case .settings: SettingsKeys.command(for: press, focus: state.focus, targets: targets)
        case .editor: (EditorInput.command(for: press, state: state, targets: targets), true)
        case .game, .scoreboard: GameKeys.command(for: press, state: state, targets: targets)
        case .clips: ClipsKeys.command(for: press, focus: state.focus)
        }
        perform(command)
        return used
    }

    /// Carries out what a key map, a press or a screen's controls decided.
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
        case let .stepSetting(item, delta): step(item, by: delta)
        case let .gameStep(id, delta): perform(gameAction(id, delta, state))
        case let .edited(editor):
            let textChanged = editor.text != state.editor?.text
            update { $0.editor = editor; $0.focus = "editor:text" }
            if textChanged { scripts.autosave(now: now(), schedule: schedule) { [weak self] in self?.saveEditor() } }
        case let .request(request): _ = self.request(request)
        case let .change(body): update(body)
        }
    }

    package func focus(_ id: WidgetID?) {
        update {
            $0.focus = id
            if let id, id.hasPrefix("script:") { $0.selectedScript = String(id.dropFirst("script:".count)) }
            if let id, id.hasPrefix("clip:") { $0.selectedClip = String(id.dropFirst("clip:".count)) }
        }
    }

    package func step(_ item: SettingsScreen.Item, by delta: Int) {
        var settings = controller.settings
        item.step(&settings, by: delta)
        if settings.speed != controller.engine.speed { controller.setSpeed(settings.speed, at: now()) }
        controller.updateSettings { $0 = settings }
        onChange()
    }

    // MARK: pointer and touch

    /// A pointer moved, or a button went down or up, at inner-display pixels.
    package func pointer(x: Double, y: Double, button: PointerButton?) {
        update { $0.pointer = PointerPosition(x: x, y: y) }
        switch button {
        case nil: drag(x: x)
        // BTN_LEFT; other buttons do nothing rather than something surprising.
        case let button? where button.code == 0x110:
            if button.isPressed { press(x: x, y: y) } else { update { $0.dragging = nil } }
        default: break
        }
    }

    /// A finger on the inner touchscreen: down acts like a click, motion drags a slider.
    package func touch(phase: TouchPhase, x: Double, y: Double) {
        switch phase {
        case .down: update { $0.pointer = nil }; press(x: x, y: y)
        case .motion: drag(x: x)
        case .up, .cancel: update { $0.dragging = nil }
        }
    }

    private func press(x: Double, y: Double) {
        guard let press = ConsolePress(x: x, y: y, targets: targets, state: state, build: shownBuild) else { return }
        focus(press.target.id)
        if press.drags {
            update { $0.dragging = press.target.id }
            slide(press.target, x: x)
        }
        perform(press.command)
    }

    private func drag(x: Double) {
        if let dragging = state.dragging, let target = targets[dragging] { slide(target, x: x) }
    }

    private func slide(_ target: WidgetTarget, x: Double) {
        guard let speed = ConsolePress.speed(on: target, atX: x), speed != controller.engine.speed else { return }
        controller.setSpeed(speed, at: now())
    }

    // MARK: controls

    /// What a control does when clicked, tapped, or chosen with Enter.
    package func activate(_ id: WidgetID) {
        if id.hasPrefix("tab:"), let screen = ConsoleScreen(rawValue: String(id.dropFirst(4))) {
            show(screen)
        } else if id.hasPrefix("game:group:") {
            update { $0.gameGroup = String(id.dropFirst("game:group:".count)) }
        } else if id.hasPrefix("game:") {
            perform(gameAction(id, 0, state))
        } else if id.hasPrefix("clips:") || id.hasPrefix("clip:") {
            perform(clipsAction(id, state))
        } else if id.hasPrefix("dialog:") {
            dialogAction(id)
        } else if id.hasPrefix("library:") {
            perform(library.action(id, state: state))
        } else if let selection = LibraryScreen.selection(forFolderID: id) {
            update { $0.folder = selection }
            selectFirstIfNeeded()
        } else if id.hasPrefix("script:") {
            open(String(id.dropFirst("script:".count)))
        } else if id == ControllersPanel.testID {
            controllersTest()
        } else if id == SettingsScreen.selfTestID {
            selfTestStart()
        } else if id == RemotePanel.pairID {
            _ = request(.remote(action: "pair", id: nil))
        } else if id.hasPrefix(RemotePanel.revokePrefix) {
            _ = request(.remote(action: "revoke", id: String(id.dropFirst(RemotePanel.revokePrefix.count))))
        } else if let item = SettingsScreen.item(for: id) {
            step(item, by: 1)
        } else if let command = PrompterControls.command(forButton: id, controller: controller, isOuterEnabled: isOuterEnabled) {
            perform(command)
        } else if id == "editor:done" {
            show(controller.script == nil ? .library : .prompter)
        } else if id == "search" {
            focus("search")
        }
    }

    // MARK: library

    private func selectFirstIfNeeded() {
        update { library.keepSelection(in: &$0) }
    }

    private func open(_ id: String) {
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

    // MARK: dialogs

    private func dialogAction(_ id: WidgetID) {
        guard let dialog = state.dialog else { return }
        if id == "dialog:cancel" { return closeDialog(dialog) }
        switch dialog {
        case .confirmDeleteClip, .exportClip:
            perform(clipsAction(id, state))
        case let .rigUpdate(.offer(offer)) where id == "dialog:confirm":
            update { $0.dialog = .rigUpdate(.installing(version: offer.version)); $0.focus = "dialog:cancel" }
            rigUpdateAnswered(.offer(offer), true)
        case .endGame, .deleteGameMedia:
            // The game's answer: "game:answer:confirm" (delete) or "game:answer:keep".
            update { $0.dialog = nil; $0.focus = nil }
            perform(gameAction("game:answer:" + id.dropFirst("dialog:".count), 0, state))
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
