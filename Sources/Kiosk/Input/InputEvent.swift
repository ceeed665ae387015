import Stage

/// What the input side tells the kiosk, already routed: taps come from the outer
/// touchscreen only, pointer and touch coordinates are in the inner display's pixels.
/// Times are the events' own CLOCK_MONOTONIC seconds.
enum InputEvent: Sendable, Equatable {
    /// The talent tapped the outer touchscreen; `time` is when the finger came down.
    case outerTap(time: Double)
    /// A key pressed (or repeating) on an operator device, bound or not.
    case key(KeyPress)
    /// Pointer position on the inner display; `button` is set for a press or release.
    case innerPointer(x: Double, y: Double, button: PointerButton?, time: Double)
    case innerTouch(phase: TouchSample.Phase, slot: Int32, x: Double, y: Double, time: Double)
    /// The operator's mouse wheel turned by whole detents (down positive).
    case wheel(steps: Int, time: Double)
    case deviceAdded(InputDeviceInfo)
    case deviceRemoved(InputDeviceInfo)
}

/// Which display a device serves on the rig.
enum InputDeviceRole: String, Sendable, Equatable {
    /// The touchscreen named in rig.toml `[touch] device`: taps only.
    case outerTouchscreen = "outer touchscreen"
    /// Keyboards, clickers and pedals, pointers and other touchscreens: the operator's side.
    case inner = "inner"
}

struct InputDeviceInfo: Sendable, Equatable, CustomStringConvertible {
    enum Capability: String, Sendable, CaseIterable, Comparable {
        case keyboard, pointer, touch, tabletTool = "tablet-tool", tabletPad = "tablet-pad"
        case gesture, switchDevice = "switch"

        static func < (lhs: Self, rhs: Self) -> Bool {
            allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
        }
    }

    var name: String
    /// The kernel's event node name, e.g. "event4".
    var sysname: String
    var capabilities: Set<Capability>
    var role: InputDeviceRole

    var description: String {
        let caps = capabilities.sorted().map(\.rawValue).joined(separator: ",")
        return "\(sysname)\t\(name)\t[\(caps)]\t\(role.rawValue)"
    }
}
