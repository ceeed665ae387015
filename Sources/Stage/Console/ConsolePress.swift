import Prompter
import Render

/// What a click or a tap at a point of the inner display does, decided from the
/// targets of the frame last shown. The control hit always takes the focus first.
struct ConsolePress {
    let target: WidgetTarget
    /// A slider: dragged from here until the button or finger lifts.
    let drags: Bool
    /// What the press does after the focus moved; for a slider, nothing more.
    let command: ConsoleCommand

    /// Nil when the point hits no control. `build` laid out the frame last shown, to
    /// measure the editor's text where it was clicked.
    init?(x: Double, y: Double, targets: WidgetTargets, state: ConsoleState, build: ConsoleBuild?) {
        guard let target = targets.target(atX: x, y: y) else { return nil }
        self.target = target
        drags = target.kind == .slider
        let id = target.id
        switch target.kind {
        case .button:
            // A click on the script (or clip) already selected opens (replays) it: select, then open.
            let wasSelected = state.selectedScript.map { "script:" + $0 } == id || state.selectedClip.map { "clip:" + $0 } == id
            let row = id.hasPrefix("script:") || id.hasPrefix("clip:")
            command = row && !wasSelected ? .none : .activate(id)
        case .slider:
            command = .none
        case .stepper:
            // "‹ value ›": the value's left half steps down; the rest of the row steps up.
            let rect = target.rect
            let down = x >= Double(rect.x + rect.width / 2) && x < Double(rect.x + rect.width * 3 / 4)
            if let item = SettingsScreen.item(for: id) {
                command = .stepSetting(item, down ? -1 : 1)
            } else if id.hasPrefix("game:set:") || id.hasPrefix("game:param:") {
                command = .gameStep(id, down ? -1 : 1)
            } else {
                command = .none
            }
        case .textField:
            // A line of the editor's text: the caret goes to the point (the text stays).
            guard id.hasPrefix(EditorScreen.linePrefix), let editor = state.editor, let build,
                  let placed = EditorInput.caret(editor, clickedAt: x, y: y, on: target, build: build) else {
                command = .none
                return
            }
            command = .edited(placed)
        }
    }

    /// The scroll speed a slider sets at `x`, in steps of 5; nil for other sliders.
    static func speed(on target: WidgetTarget, atX x: Double) -> Int? {
        guard target.id == "prompter:speed" else { return nil }
        let range = ScrollSpeed.range
        let value = Double(range.lowerBound) + target.fraction(atX: x) * Double(range.upperBound - range.lowerBound)
        return Int((value / 5).rounded()) * 5
    }
}
