/// One hand controller as the stage knows it (issue 40): what it is, where its speed
/// control sits and the speed that asks for.
package struct ControllerReading: Sendable, Equatable {
    package enum Kind: String, Sendable {
        case shuttle, gamepad
    }

    /// The kernel's event node ("event7").
    package var id: String
    package var name: String
    package var kind: Kind
    /// The speed control and its raw range, for `rig devices` and the status ("ring -7…7").
    package var axis: String
    /// The control's raw value, its travel past the neutral band (-1…1, 0 in the band)
    /// and the signed speed its map asks for, px/s.
    package var raw: Double
    package var travel: Double
    package var speed: Double

    package init(id: String, name: String, kind: Kind, axis: String, raw: Double = 0, travel: Double = 0,
                 speed: Double = 0) {
        self.id = id
        self.name = name
        self.kind = kind
        self.axis = axis
        self.raw = raw
        self.travel = travel
        self.speed = speed
    }
}

/// What the hand controllers tell the stage, each at the event's own CLOCK_MONOTONIC
/// time. Their buttons come as keys (`StageEvent.key`), bound in `[keys]`.
package enum ControllerEvent: Sendable, Equatable {
    case added(ControllerReading)
    /// The speed control moved: the reading's position and the speed it asks for now.
    case moved(ControllerReading, time: Double)
    /// A shuttle's jog wheel turned by `detents` (negative: back).
    case jogged(id: String, detents: Int, time: Double)
    /// The operator's mouse wheel turned by `steps` (positive: towards the talent's next
    /// line, as a page scrolls down).
    case wheel(steps: Int, time: Double)
    case removed(id: String, time: Double)
}
