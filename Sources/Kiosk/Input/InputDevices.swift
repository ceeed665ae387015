import CInput
import CUdev
import Stage

/// The rig's input side on the event loop: libinput over udev, devices coming and going,
/// the outer touchscreen turned into taps, keys into actions, inner pointers and touches
/// into inner-display pixels. Every `InputEvent` goes to `handler` on the loop thread.
final class InputDevices {
    private struct Device {
        var info: InputDeviceInfo
        /// Last position per inner touch slot, since libinput's up events carry none.
        var touchPositions: [Int32: (x: Double, y: Double)] = [:]
        /// Shift, CapsLock and AltGr of this keyboard; nil without a keymap.
        var keyboard: KeyboardState?
    }

    private let loop: EventLoop
    private let context: LibinputContext
    private let handler: (InputEvent) -> Void
    private var readerID: EventLoop.SourceID?
    private(set) var configuration: InputConfiguration
    private var recognizer: TapRecognizer
    private var devicesByHandle: [OpaquePointer: Device] = [:]
    private var pointer: (x: Double, y: Double)
    private var wheelRemainder = 0.0
    private let repeater: KeyRepeater
    private(set) var counters = InputCounters()
    /// The `[keyboard]` layout; nil when it cannot be compiled (see `keymapError`).
    let keymap: KeyboardKeymap?
    /// Why keys type no text and the editing keys have their US meaning.
    let keymapError: KeyboardKeymapError?

    /// Low-level lines (touch down/up with times, recogniser verdicts) for `rig input-probe`.
    var trace: ((String) -> Void)?

    init(loop: EventLoop, configuration: InputConfiguration, opener: InputDeviceOpener,
         handler: @escaping (InputEvent) -> Void) throws {
        self.loop = loop
        self.configuration = configuration
        self.handler = handler
        repeater = KeyRepeater(loop: loop) { handler(.key($0)) }
        context = try LibinputContext(opener: opener, seat: configuration.seat)
        do {
            keymap = try KeyboardKeymap(names: configuration.keyboard)
            keymapError = nil
        } catch {
            keymap = nil
            keymapError = error
        }
        recognizer = TapRecognizer(displayWidth: configuration.outerMapping.width,
                                   displayHeight: configuration.outerMapping.height,
                                   limits: configuration.tapLimits)
        pointer = (configuration.innerWidth / 2, configuration.innerHeight / 2)
        readerID = loop.addReader(fd: context.fd, name: "libinput") { [weak self] in self?.drain() }
        repeater.readPending = { [weak self] in self?.drain() }
        // Devices present at start are queued during seat assignment; report them at once.
        loop.addTimer(at: loop.clock()) { [weak self] in self?.drain() }
    }

    deinit {
        if let readerID { loop.remove(readerID) }
    }

    /// Why keys type no text, for the operator's problems banner, with the rig.toml place
    /// of `[keyboard]` when the file set it.
    var keymapProblem: String? { keymapError?.operatorMessage(places: configuration.keyboardPlaces) }

    /// With `[touch] device = "auto"` and several touchscreens: which to choose, for the banner.
    private(set) var autoTouchProblem: String?

    /// The devices present now, for the operator console and `rig devices`.
    var devices: [InputDeviceInfo] { devicesByHandle.values.map(\.info).sorted { $0.sysname < $1.sysname } }

    /// Whether the outer content is shown; taps while it is not are ignored.
    var outerTakesTaps: Bool {
        get { recognizer.outerTakesTaps }
        set { recognizer.outerTakesTaps = newValue }
    }

    /// New display sizes, rotation or key bindings (a mode change, a reloaded rig.toml).
    /// The outer touchscreen selector is fixed for the life of the context.
    func update(outerMapping: TouchMapping? = nil, innerWidth: Double? = nil, innerHeight: Double? = nil,
                bindings: KeyBindings? = nil) {
        if let outerMapping {
            configuration.outerMapping = outerMapping
            recognizer.resize(displayWidth: outerMapping.width, displayHeight: outerMapping.height)
        }
        if let innerWidth { configuration.innerWidth = innerWidth }
        if let innerHeight { configuration.innerHeight = innerHeight }
        if let bindings { configuration.bindings = bindings }
    }

    /// A VT switch away: libinput closes every device; `resume()` reopens them.
    func suspend() {
        repeater.stop()
        context.suspend()
    }

    func resume() { context.resume() }

    /// Reads everything libinput has queued and routes it in the order it happened
    /// (InputBatchOrder).
    func drain() {
        context.dispatch()
        var batch: [LibinputEvent] = []
        while let event = context.nextEvent() { batch.append(event) }
        let order = InputBatchOrder.routing(batch.map { event in
            let type = event.type
            return InputBatchOrder.Event(device: event.device, time: event.timeUsec,
                                         changesDevices: event.device == nil || type == LIBINPUT_EVENT_DEVICE_ADDED
                                             || type == LIBINPUT_EVENT_DEVICE_REMOVED)
        })
        for index in order { route(batch[index]) }
    }

    private func route(_ event: LibinputEvent) {
        guard let device = event.device else { return }
        switch event.type {
        case LIBINPUT_EVENT_DEVICE_ADDED:
            let info = Self.describe(device, outerTouch: configuration.outerTouch)
            var added = Device(info: info)
            if info.role == .inner, info.capabilities.contains(.keyboard) {
                added.keyboard = keymap.flatMap(KeyboardState.init(keymap:))
            }
            devicesByHandle[device] = added
            chooseAutoTouch()
            trace?("device added: \(info)")
            handler(.deviceAdded(devicesByHandle[device]?.info ?? info))
        case LIBINPUT_EVENT_DEVICE_REMOVED:
            guard let removed = devicesByHandle.removeValue(forKey: device) else { return }
            repeater.stop()
            if removed.info.role == .outerTouchscreen {
                // A finger on a panel that vanished (unplugged, VT switch) is not a tap later.
                _ = recognizer.handle(TouchSample(phase: .cancel, slot: -1, x: 0, y: 0, time: 0))
            }
            chooseAutoTouch()
            trace?("device removed: \(removed.info)")
            handler(.deviceRemoved(removed.info))
        case LIBINPUT_EVENT_KEYBOARD_KEY:
            if let keyboard = libinput_event_get_keyboard_event(event.handle) { key(keyboard, from: device) }
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION, LIBINPUT_EVENT_TOUCH_UP,
             LIBINPUT_EVENT_TOUCH_CANCEL:
            if let touch = libinput_event_get_touch_event(event.handle) { self.touch(touch, type: event.type, from: device) }
        case LIBINPUT_EVENT_POINTER_MOTION, LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE, LIBINPUT_EVENT_POINTER_BUTTON:
            if let motion = libinput_event_get_pointer_event(event.handle) { self.pointer(motion, type: event.type, from: device) }
        case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL:
            if let wheel = libinput_event_get_pointer_event(event.handle) { self.wheel(wheel, from: device) }
        default:
            break
        }
    }

    /// With `[touch] device = "auto"`, the roles of the touchscreens present now: the only
    /// one is the participant's; with several, none is.
    private func chooseAutoTouch() {
        guard configuration.outerTouch == .auto else { return }
        let choice = AutoTouchChoice(touchscreens: devicesByHandle.values.map(\.info).filter { $0.capabilities.contains(.touch) })
        autoTouchProblem = choice.problem
        for (handle, device) in devicesByHandle where device.info.capabilities.contains(.touch) {
            let role: InputDeviceRole = device.info.sysname == choice.chosen ? .outerTouchscreen : .inner
            if role != device.info.role {
                devicesByHandle[handle]?.info.role = role
                // A finger on a panel that changed sides is not a tap later.
                if device.info.role == .outerTouchscreen {
                    _ = recognizer.handle(TouchSample(phase: .cancel, slot: -1, x: 0, y: 0, time: 0))
                }
            }
        }
    }

    private func isOuter(_ device: OpaquePointer) -> Bool {
        devicesByHandle[device]?.info.role == .outerTouchscreen
    }

    // MARK: keys

    private func key(_ event: OpaquePointer, from device: OpaquePointer) {
        // Buttons on the outer panel's bezel are not the talent's to use.
        guard !isOuter(device) else { return }
        let code = libinput_event_keyboard_get_key(event)
        let pressed = libinput_event_keyboard_get_key_state(event) == LIBINPUT_KEY_STATE_PRESSED
        let time = Double(libinput_event_keyboard_get_time_usec(event)) / 1e6
        let action = configuration.bindings.action(forKey: code)
        trace?(String(format: "%.6f key %@ %@ -> %@", time, KeyNames.name(for: code) ?? "code \(code)",
                      pressed ? "pressed" : "released", action?.rawValue ?? "unbound"))
        // Every press and release reaches the device's keyboard state, even the ones
        // not reported below, or its Shift and CapsLock would drift from the keys.
        let keyboard = devicesByHandle[device]?.keyboard
        guard pressed else {
            keyboard?.release(code: code)
            repeater.released(code: code)
            return
        }
        let meaning = keyboard?.press(code: code) ?? KeyMeaning.fallback(code: code)
        // The same key held on two keyboards at once counts once.
        guard libinput_event_keyboard_get_seat_key_count(event) == 1 else { return }
        if action == nil { counters.unboundKeys += 1 } else { counters.keyActions += 1 }
        let press = KeyPress(code: code, action: action, symbol: meaning.symbol, text: meaning.text,
                             modifiers: meaning.modifiers, time: time)
        handler(.key(press))
        // Speed keys always repeat; the rest as the layout says (not the modifiers).
        let repeats = keymap?.repeats(code: code) ?? KeyMeaning.fallbackRepeats(code: code)
        if repeats || action?.repeatsWhileHeld == true {
            repeater.start(press, delay: configuration.repeatDelay, interval: configuration.repeatInterval)
        }
    }

    // MARK: touch

    private func touch(_ event: OpaquePointer, type: libinput_event_type, from device: OpaquePointer) {
        let time = Double(libinput_event_touch_get_time_usec(event)) / 1e6
        let slot = libinput_event_touch_get_slot(event)
        let phase: TouchSample.Phase = switch type {
        case LIBINPUT_EVENT_TOUCH_DOWN: .down
        case LIBINPUT_EVENT_TOUCH_MOTION: .motion
        case LIBINPUT_EVENT_TOUCH_UP: .up
        default: .cancel
        }
        let hasPosition = phase == .down || phase == .motion
        if isOuter(device) {
            var position = (x: 0.0, y: 0.0)
            if hasPosition {
                position = configuration.outerMapping.map(sensorX: libinput_event_touch_get_x_transformed(event, 1),
                                                          sensorY: libinput_event_touch_get_y_transformed(event, 1))
            }
            trace?(String(format: "%.6f outer touch %@ slot %d at %.1f,%.1f", time, "\(phase)", slot, position.x, position.y))
            let sample = TouchSample(phase: phase, slot: slot, x: position.x, y: position.y, time: time)
            guard let outcome = recognizer.handle(sample) else { return }
            switch outcome {
            case let .tap(tap):
                trace?(String(format: "tap at %.6f (down time)", tap.time))
                counters.taps += 1
                counters.lastTapTime = tap.time
                handler(.outerTap(time: tap.time))
            case let .rejected(reason):
                trace?("not a tap: \(reason)")
                counters.count(reason)
            }
            return
        }
        guard var state = devicesByHandle[device] else { return }
        var position = state.touchPositions[slot] ?? (0, 0)
        if hasPosition {
            position = (libinput_event_touch_get_x_transformed(event, UInt32(max(configuration.innerWidth, 1))),
                        libinput_event_touch_get_y_transformed(event, UInt32(max(configuration.innerHeight, 1))))
            state.touchPositions[slot] = position
        } else {
            state.touchPositions[slot] = nil
        }
        devicesByHandle[device] = state
        handler(.innerTouch(phase: phase, slot: slot, x: position.x, y: position.y, time: time))
        // After the handler: a status that shows the count shows what the touch did.
        if phase == .down { counters.innerTouches += 1 }
    }

    // MARK: pointer

    /// The operator's wheel in whole detents (120 per detent; a high-resolution wheel's
    /// fractions add up), down (towards the script's end) positive.
    private func wheel(_ event: OpaquePointer, from device: OpaquePointer) {
        guard !isOuter(device), libinput_event_pointer_has_axis(event, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL) != 0 else { return }
        wheelRemainder += libinput_event_pointer_get_scroll_value_v120(event, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL)
        let steps = Int(wheelRemainder / 120)
        guard steps != 0 else { return }
        wheelRemainder -= Double(steps) * 120
        handler(.wheel(steps: steps, time: Double(libinput_event_pointer_get_time_usec(event)) / 1e6))
    }

    private func pointer(_ event: OpaquePointer, type: libinput_event_type, from device: OpaquePointer) {
        guard !isOuter(device) else { return }
        let time = Double(libinput_event_pointer_get_time_usec(event)) / 1e6
        let width = configuration.innerWidth, height = configuration.innerHeight
        var button: PointerButton?
        switch type {
        case LIBINPUT_EVENT_POINTER_MOTION:
            pointer = (min(max(pointer.x + libinput_event_pointer_get_dx(event), 0), width - 1),
                       min(max(pointer.y + libinput_event_pointer_get_dy(event), 0), height - 1))
        case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
            pointer = (libinput_event_pointer_get_absolute_x_transformed(event, UInt32(max(width, 1))),
                       libinput_event_pointer_get_absolute_y_transformed(event, UInt32(max(height, 1))))
        default:
            button = PointerButton(code: libinput_event_pointer_get_button(event),
                                   isPressed: libinput_event_pointer_get_button_state(event) == LIBINPUT_BUTTON_STATE_PRESSED)
        }
        handler(.innerPointer(x: pointer.x, y: pointer.y, button: button, time: time))
    }
}
