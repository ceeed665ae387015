import Stage

/// What the windows' users did, as the window backend reads it from SDL: positions
/// already in the display's pixels, times on CLOCK_MONOTONIC. `WindowInput` turns these
/// into the kiosk's `InputEvent`s the way `InputDevices` turns libinput's.
enum WindowInputEvent: Sendable, Equatable {
    /// A key went down or up; `scancode` is SDL's (USB HID usage). SDL's own repeats are
    /// not reported: the kiosk repeats held keys itself, as on the rig.
    case key(scancode: UInt32, pressed: Bool, time: Double)
    /// The mouse moved over, or a button went down or up in, `role`'s window.
    /// `button`: SDL's button number (1 left, 2 middle, 3 right).
    case pointer(DisplayRole, x: Double, y: Double, button: (number: UInt8, pressed: Bool)?, time: Double)
    case touch(DisplayRole, phase: TouchPhase, slot: Int32, x: Double, y: Double, time: Double)
    /// No window of the kiosk has the keyboard any more: keys held now are released
    /// without the kiosk hearing it.
    case keyboardLost

    static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case let (.key(a, b, c), .key(d, e, f)): a == d && b == e && c == f
        case let (.pointer(r1, x1, y1, b1, t1), .pointer(r2, x2, y2, b2, t2)):
            r1 == r2 && x1 == x2 && y1 == y2 && t1 == t2 && b1?.number == b2?.number && b1?.pressed == b2?.pressed
        case let (.touch(r1, p1, s1, x1, y1, t1), .touch(r2, p2, s2, x2, y2, t2)):
            r1 == r2 && p1 == p2 && s1 == s2 && x1 == x2 && y1 == y2 && t1 == t2
        case (.keyboardLost, .keyboardLost): true
        default: false
        }
    }
}
