import CInput
import Stage

/// The windows' input as the rig's: keys through the same `[keys]` bindings and
/// `[keyboard]` layout as a keyboard on the rig (repeated by the kiosk, not the desktop),
/// the mouse and touches in the inner window as the operator's pointer and touches, and
/// a click or touch in the outer window as a touch on the talent's panel, which the same
/// `TapRecognizer` accepts as a tap or rejects (held too long, dragged, too soon).
/// Runs on the event loop thread; every result goes to `handler`.
final class WindowInput {
    private let loop: EventLoop
    private let handler: (InputEvent) -> Void
    private(set) var configuration: InputConfiguration
    private var recognizer: TapRecognizer
    private let keyboard: KeyboardState?
    private var held: Set<UInt32> = []
    private let repeater: KeyRepeater
    private(set) var counters = InputCounters()
    /// Why keys type no text (the `[keyboard]` layout did not compile).
    let keymapProblem: String?

    init(loop: EventLoop, configuration: InputConfiguration, handler: @escaping (InputEvent) -> Void) {
        self.loop = loop
        self.configuration = configuration
        self.handler = handler
        repeater = KeyRepeater(loop: loop) { handler(.key($0)) }
        recognizer = TapRecognizer(displayWidth: configuration.outerMapping.width,
                                   displayHeight: configuration.outerMapping.height, limits: configuration.tapLimits)
        do {
            keyboard = KeyboardState(keymap: try KeyboardKeymap(names: configuration.keyboard))
            keymapProblem = nil
        } catch {
            keyboard = nil
            keymapProblem = error.operatorMessage(places: configuration.keyboardPlaces)
        }
    }

    /// Whether the talent sees the outer content; clicks while it does not are ignored.
    var outerTakesTaps: Bool {
        get { recognizer.outerTakesTaps }
        set { recognizer.outerTakesTaps = newValue }
    }

    func update(outerWidth: Double, outerHeight: Double) {
        configuration.outerMapping.width = outerWidth
        configuration.outerMapping.height = outerHeight
        recognizer.resize(displayWidth: outerWidth, displayHeight: outerHeight)
    }

    func handle(_ event: WindowInputEvent) {
        switch event {
        case let .key(scancode, pressed, time):
            guard let code = SDLScancodes.evdevCode(scancode) else { return }
            key(code, pressed: pressed, time: time)
        case let .pointer(.inner, x, y, button, time):
            let code = button.map { PointerButton(code: Self.evdevButton($0.number), isPressed: $0.pressed) }
            handler(.innerPointer(x: x, y: y, button: code, time: time))
        case let .pointer(.outer, x, y, button, time):
            // The left button is the talent's finger; moving without it touches nothing.
            if let button, button.number != 1 { return }
            let phase: TouchPhase = button.map { $0.pressed ? .down : .up } ?? .motion
            outerTouch(TouchSample(phase: phase, slot: 0, x: x, y: y, time: time))
        case let .touch(.inner, phase, slot, x, y, time):
            handler(.innerTouch(phase: phase, slot: slot, x: x, y: y, time: time))
            if phase == .down { counters.innerTouches += 1 }
        case let .touch(.outer, phase, slot, x, y, time):
            // Slot 0 is the mouse's: fingers take the slots after it.
            outerTouch(TouchSample(phase: phase, slot: slot &+ 1, x: x, y: y, time: time))
        case .keyboardLost:
            repeater.stop()
            for code in held { keyboard?.release(code: code) }
            held = []
        }
    }

    /// `rig ctl status`'s `input` object, as `InputDevices` reports it on the rig.
    var statusJSON: JSONValue {
        [
            "devices": .array([]),
            "window": .bool(true),
            "outer_takes_taps": .bool(outerTakesTaps),
            "taps": .int(counters.taps),
            "last_tap_time": counters.lastTapTime.map { .number($0) } ?? .null,
            "rejected_touches": .object(counters.rejected.mapValues { .int($0) }),
            "rejected_touch_total": .int(counters.rejected.values.reduce(0, +)),
            "inner_touches": .int(counters.innerTouches),
            "key_actions": .int(counters.keyActions),
            "unbound_keys": .int(counters.unboundKeys),
        ]
    }

    // MARK: keys

    private func key(_ code: UInt32, pressed: Bool, time: Double) {
        let action = configuration.bindings.action(forKey: code)
        guard pressed else {
            if held.remove(code) != nil { keyboard?.release(code: code) }
            repeater.released(code: code)
            return
        }
        guard held.insert(code).inserted else { return }
        let meaning = keyboard?.press(code: code) ?? KeyMeaning.fallback(code: code)
        if action == nil { counters.unboundKeys += 1 } else { counters.keyActions += 1 }
        let press = KeyPress(code: code, action: action, symbol: meaning.symbol, text: meaning.text,
                             modifiers: meaning.modifiers, time: time)
        handler(.key(press))
        let repeats = keyboard?.keymap.repeats(code: code) ?? KeyMeaning.fallbackRepeats(code: code)
        if repeats || action?.repeatsWhileHeld == true {
            repeater.start(press, delay: configuration.repeatDelay, interval: configuration.repeatInterval)
        }
    }

    // MARK: pointer and touch

    private static func evdevButton(_ number: UInt8) -> UInt32 {
        switch number {
        case 2: UInt32(BTN_MIDDLE)
        case 3: UInt32(BTN_RIGHT)
        case 4: UInt32(BTN_SIDE)
        case 5: UInt32(BTN_EXTRA)
        default: UInt32(BTN_LEFT)
        }
    }

    private func outerTouch(_ sample: TouchSample) {
        guard let outcome = recognizer.handle(sample) else { return }
        switch outcome {
        case let .tap(tap):
            counters.taps += 1
            counters.lastTapTime = tap.time
            handler(.outerTap(time: tap.time))
        case let .rejected(reason):
            counters.count(reason)
        }
    }
}
