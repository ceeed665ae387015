import Render
import Stage

/// What the input side needs from rig.toml and the displays. The display side updates
/// the sizes and the outer rotation when modes change (`InputDevices.update`).
struct InputConfiguration: Sendable, Equatable {
    /// rig.toml `[touch] device`; nil when the rig has no outer touchscreen.
    var outerTouch: OuterTouchSelector?
    /// The outer display's logical size, its panel rotation and `[touch] calibration`.
    var outerMapping = TouchMapping(width: 1920, height: 1080)
    var innerWidth = 1920.0
    var innerHeight = 1080.0
    var bindings = KeyBindings.defaults
    var tapLimits = TapRecognizer.Limits()
    var seat = "seat0"
    /// rig.toml `[keyboard]`: what the operator's keys type.
    var keyboard = KeyboardLayoutNames()
    /// Where rig.toml set `keyboard.*`, for the message when XKB cannot build the layout.
    var keyboardPlaces: [String: ConfigPlace] = [:]
    /// Held keys repeat after this long, then at this interval (seconds).
    var repeatDelay = 0.40
    var repeatInterval = 0.10
}

extension InputConfiguration {
    /// The input side of a loaded rig.toml. Display sizes are the modes actually set,
    /// which only the display side knows; it passes them here and on every change
    /// (`InputDevices.update`). Key problems were reported by the config loader already.
    init(config: RigConfig, outerWidth: Double, outerHeight: Double, innerWidth: Double, innerHeight: Double) {
        self.init()
        outerTouch = OuterTouchSelector(configValue: config.touch.device)
        outerMapping = TouchMapping(width: outerWidth, height: outerHeight,
                                    rotation: TouchMapping.Rotation(rawValue: config.displays.outer.rotation) ?? .none,
                                    calibration: config.touch.calibration)
        self.innerWidth = innerWidth
        self.innerHeight = innerHeight
        let entries = config.keys.map { (action: $0.key, keys: $0.value, line: 0, column: 0) }
        bindings = KeyBindings.parse(bindings: entries).bindings
        keyboard = config.keyboard.names
        keyboardPlaces = config.keyboard.places
    }

    /// At start, before the displays report their modes: the sizes rig.toml gives them.
    init(config: RigConfig) {
        let inner = config.displays.inner.drawingSize(headless: config.displays)
        let outer = config.displays.outer.drawingSize(headless: config.displays)
        self.init(config: config, outerWidth: Double(outer.width), outerHeight: Double(outer.height),
                  innerWidth: Double(inner.width), innerHeight: Double(inner.height))
    }

    /// The sizes the backend's displays have now (the windows'), else rig.toml's.
    init(config: RigConfig, displays: any DisplayBackend) {
        let inner = displays.status(of: .inner).mode.map { PixelSize(width: $0.width, height: $0.height) }
            ?? config.displays.inner.drawingSize(headless: config.displays)
        let outer = displays.status(of: .outer).mode.map { PixelSize(width: $0.width, height: $0.height) }
            ?? config.displays.outer.drawingSize(headless: config.displays)
        self.init(config: config, outerWidth: Double(outer.width), outerHeight: Double(outer.height),
                  innerWidth: Double(inner.width), innerHeight: Double(inner.height))
    }
}

extension TouchMapping {
    /// The outer touchscreen mapped onto the outer display in this mode.
    init(outer config: RigConfig, width: Int, height: Int) {
        self.init(width: Double(width), height: Double(height),
                  rotation: TouchMapping.Rotation(rawValue: config.displays.outer.rotation) ?? .none,
                  calibration: config.touch.calibration)
    }
}
