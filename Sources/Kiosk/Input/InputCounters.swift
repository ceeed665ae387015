import Stage

/// What the input side has seen since start, for `rig ctl status`: a test (or an
/// installer) can wait for "the swipe was seen and rejected" instead of sleeping, and
/// an operator can tell a dead touchscreen from a talent who never tapped.
struct InputCounters: Sendable, Equatable {
    var taps = 0
    var lastTapTime: Double?
    /// Touch gestures on the outer touchscreen that were not taps, by reason.
    var rejected: [String: Int] = [:]
    /// Fingers put down on the inner touchscreen, counted once the console has had them.
    var innerTouches = 0
    var keyActions = 0
    var unboundKeys = 0

    mutating func count(_ rejection: TapRecognizer.Rejection) {
        rejected[rejection.name, default: 0] += 1
    }
}

extension TapRecognizer.Rejection {
    /// snake_case names for status JSON and logs.
    var name: String {
        switch self {
        case .heldTooLong: "held_too_long"
        case .moved: "moved"
        case .secondFinger: "second_finger"
        case .palm: "palm"
        case .cancelled: "cancelled"
        case .notPresented: "not_presented"
        case .debounced: "debounced"
        }
    }
}

extension InputDevices {
    /// The `input` object of `rig ctl status`.
    var statusJSON: JSONValue {
        [
            "devices": .array(devices.map { device in
                [
                    "name": .string(device.name),
                    "sysname": .string(device.sysname),
                    "capabilities": .array(device.capabilities.sorted().map { .string($0.rawValue) }),
                    "role": .string(device.role.rawValue),
                ]
            }),
            "outer_touchscreen": .optional(configuration.outerTouch?.description),
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
}
