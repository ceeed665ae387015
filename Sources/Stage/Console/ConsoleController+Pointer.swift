import Prompter
import Render

/// Mouse and touch on the inner display, and what activating each control does.
extension ConsoleController {
    /// A pointer moved, or a button went down or up, at inner-display pixels.
    package func pointer(x: Double, y: Double, button: PointerButton?) {
        update { $0.pointer = PointerPosition(x: x, y: y) }
        guard let button else {
            if let dragging = state.dragging, let target = targets[dragging] { slide(target, x: x) }
            return
        }
        // BTN_LEFT; other buttons do nothing rather than something surprising.
        guard button.code == 0x110 else { return }
        if button.isPressed {
            press(x: x, y: y)
        } else {
            update { $0.dragging = nil }
        }
    }

    /// A finger on the inner touchscreen: down acts like a click, motion drags a slider.
    package func touch(phase: TouchPhase, x: Double, y: Double) {
        switch phase {
        case .down:
            update { $0.pointer = nil }
            press(x: x, y: y)
        case .motion:
            if let dragging = state.dragging, let target = targets[dragging] { slide(target, x: x) }
        case .up, .cancel:
            update { $0.dragging = nil }
        }
    }

    private func press(x: Double, y: Double) {
        guard let target = targets.target(atX: x, y: y) else { return }
        let wasSelected = state.selectedScript.map { "script:" + $0 } == target.id
            || state.selectedClip.map { "clip:" + $0 } == target.id
        focus(target.id)
        switch target.kind {
        case .button:
            // A click on the script (or clip) already selected opens (replays) it: select, then open.
            if (target.id.hasPrefix("script:") || target.id.hasPrefix("clip:")) && !wasSelected { return }
            activate(target.id)
        case .slider:
            update { $0.dragging = target.id }
            slide(target, x: x)
        case .stepper:
            // "‹ value ›": the value's left half steps down; the rest of the row steps up.
            let rect = target.rect
            let down = x >= Double(rect.x + rect.width / 2) && x < Double(rect.x + rect.width * 3 / 4)
            if let item = SettingsScreen.item(for: target.id) {
                step(item, by: down ? -1 : 1)
            } else if target.id.hasPrefix("game:set:") || target.id.hasPrefix("game:param:") {
                gameAction(target.id, down ? -1 : 1)
            }
        case .textField:
            if target.id.hasPrefix(EditorScreen.linePrefix) { clickEditorLine(target, x: x, y: y) }
        }
    }

    private func slide(_ target: WidgetTarget, x: Double) {
        guard target.id == "prompter:speed" else { return }
        let range = ScrollSpeed.range
        let value = Double(range.lowerBound) + target.fraction(atX: x) * Double(range.upperBound - range.lowerBound)
        let speed = Int((value / 5).rounded()) * 5
        if speed != controller.engine.speed { controller.setSpeed(speed, at: now()) }
    }

    /// What a control does when clicked, tapped, or chosen with Enter.
    package func activate(_ id: WidgetID) {
        if id.hasPrefix("tab:"), let screen = ConsoleScreen(rawValue: String(id.dropFirst(4))) {
            show(screen)
        } else if id.hasPrefix("game:group:") {
            update { $0.gameGroup = String(id.dropFirst("game:group:".count)) }
        } else if id.hasPrefix("game:") {
            gameAction(id, 0)
        } else if id.hasPrefix("clips:") || id.hasPrefix("clip:") {
            clipsAction(id)
        } else if id.hasPrefix("dialog:") {
            dialogAction(id)
        } else if id.hasPrefix("library:") {
            libraryAction(id)
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
        } else {
            switch id {
            case "prompter:play": _ = request(.toggle)
            case "prompter:stop": _ = request(.stop)
            case "prompter:slower": _ = request(.slower)
            case "prompter:faster": _ = request(.faster)
            case "prompter:outer": _ = request(.outer(!isOuterEnabled()))
            case "prompter:blank": _ = request(.blank(!controller.blanked))
            case "prompter:framing": _ = request(.mode(controller.mode == .framing ? "prompter" : "framing"))
            case "prompter:settings": show(.settings)
            case "prompter:record": _ = request(.key(.record))
            case "editor:done": show(controller.script == nil ? .library : .prompter)
            case "search": focus("search")
            default: break
            }
        }
    }
}
