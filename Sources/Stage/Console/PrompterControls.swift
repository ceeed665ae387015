import Prompter
import Render

/// The Prompter screen's keys and buttons. Enter activates the focused control, Left
/// and Right step the speed slider when it has the focus; every other key does what
/// it is bound to, and the library key also brings up the Library screen.
enum PrompterControls {
    /// What a key asks for, and whether the console used it (else its bound action applies).
    static func command(for press: KeyPress, focus: WidgetID?, speed: Int) -> (ConsoleCommand, used: Bool) {
        if press.action == .library { return (.show(.library), false) }
        if press.action != nil { return (.none, false) }
        switch press.symbol {
        case .enter:
            return (focus.map(ConsoleCommand.activate) ?? .none, true)
        case .left, .right:
            guard focus == "prompter:speed" else { return (.none, false) }
            let step = press.symbol == .left ? -ScrollSpeed.step : ScrollSpeed.step
            return (.request(.speed(speed + step)), true)
        default:
            return (.none, false)
        }
    }

    /// What a `prompter:` button does; nil for any other control.
    static func command(forButton id: WidgetID, controller: PrompterController,
                        isOuterEnabled: () -> Bool) -> ConsoleCommand? {
        switch id {
        case "prompter:play": .request(.toggle)
        case "prompter:stop": .request(.stop)
        case "prompter:slower": .request(.slower)
        case "prompter:faster": .request(.faster)
        case "prompter:outer": .request(.outer(!isOuterEnabled()))
        case "prompter:blank": .request(.blank(!controller.blanked))
        case "prompter:framing": .request(.mode(controller.mode == .framing ? "prompter" : "framing"))
        case "prompter:settings": .show(.settings)
        case "prompter:record": .request(.key(.record))
        default: nil
        }
    }
}
