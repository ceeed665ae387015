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
    /// Held speed keys repeat after this long, then at this interval (seconds).
    var repeatDelay = 0.40
    var repeatInterval = 0.10
}
