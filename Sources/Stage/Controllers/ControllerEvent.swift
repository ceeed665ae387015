/// One hand controller as the stage knows it (issue 40): what it is, where its speed
/// control sits and the speed that asks for.
package struct ControllerReading: Sendable, Equatable {
    package enum Kind: String, Sendable {
        case shuttle, gamepad, midi
    }

    /// The kernel's event node ("event7") or the sequencer port ("midi 24:0").
    package var id: String
    package var name: String
    package var kind: Kind
    /// The speed control and its raw range, for `rig devices` and the status ("ring -7…7").
    package var axis: String
    /// Its speed map in a line, for the console's Settings ("steps 15 30 … px/s, reverse ≤ 160").
    package var map: String
    /// The control's raw value, its travel past the neutral band (-1…1, 0 in the band)
    /// and the signed speed its map asks for, px/s.
    package var raw: Double
    package var travel: Double
    package var speed: Double

    package init(id: String, name: String, kind: Kind, axis: String, map: String = "", raw: Double = 0,
                 travel: Double = 0, speed: Double = 0) {
        self.id = id
        self.name = name
        self.kind = kind
        self.axis = axis
        self.map = map
        self.raw = raw
        self.travel = travel
        self.speed = speed
    }
}

/// What the hand controllers tell the stage, each at the event's own CLOCK_MONOTONIC
/// time. Their buttons and MIDI notes come as keys (`StageEvent.key`), bound in `[keys]`.
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

/// The hand controllers on the console's Settings screen: each one's map and where it
/// is now, and whether the maps are being tried out (the text then stays still).
package struct ControllersShown: Equatable, Sendable {
    package var controllers: [ControllerReading]
    package var steering: String?
    package var testing: Bool
}
