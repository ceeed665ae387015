/// One key press (or auto-repeat) on an operator keyboard, clicker or pedal, with
/// everything the two consumers need: the prompter's bound action from `[keys]`, and
/// for the operator console the key's meaning on the keyboard's layout (what it
/// types, or which editing key it is).
package struct KeyPress: Sendable, Equatable {
    /// evdev code (linux/input-event-codes.h).
    package var code: UInt32
    /// The action `[keys]` binds to this key, if any.
    package var action: KeyAction?
    /// The editing or navigation key this is, on the keyboard's layout.
    package var symbol: KeySymbol?
    /// The characters it types on the keyboard's layout with the modifiers held;
    /// nil for keys that type nothing (arrows, Escape, function keys) and while
    /// Control or Alt is held.
    package var text: String?
    package var modifiers: KeyModifiers = []
    /// CLOCK_MONOTONIC seconds of the press (of the repeat, for repeats).
    package var time: Double
    package var isRepeat = false

    package init(code: UInt32, action: KeyAction? = nil, symbol: KeySymbol? = nil, text: String? = nil,
                 modifiers: KeyModifiers = [], time: Double, isRepeat: Bool = false) {
        self.code = code
        self.action = action
        self.symbol = symbol
        self.text = text
        self.modifiers = modifiers
        self.time = time
        self.isRepeat = isRepeat
    }
}

/// The keys the console navigates and edits with.
package enum KeySymbol: String, Sendable, Equatable, CaseIterable {
    case up, down, left, right, home, end, pageUp, pageDown
    case enter, escape, tab, backspace, delete, space
    case f2
}

package struct KeyModifiers: OptionSet, Sendable, Hashable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    package static let shift = KeyModifiers(rawValue: 1 << 0)
    package static let control = KeyModifiers(rawValue: 1 << 1)
    package static let alt = KeyModifiers(rawValue: 1 << 2)
}
