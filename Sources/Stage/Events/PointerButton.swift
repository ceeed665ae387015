/// A mouse button pressed or released on the inner display.
package struct PointerButton: Sendable, Equatable {
    /// evdev code: BTN_LEFT (0x110), BTN_RIGHT, BTN_MIDDLE…
    package var code: UInt32
    package var isPressed: Bool

    package init(code: UInt32, isPressed: Bool) {
        self.code = code
        self.isPressed = isPressed
    }
}

/// Where a finger is in its touch on the inner display.
package enum TouchPhase: Sendable, Equatable { case down, motion, up, cancel }
