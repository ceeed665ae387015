/// One key press (or auto-repeat) on an operator keyboard, clicker or pedal, with
/// everything the two consumers need: the prompter's bound action from `[keys]`, and
/// for the operator console the key's meaning on the keyboard's layout (what it
/// types, or which editing key it is).
struct KeyPress: Sendable, Equatable {
    /// evdev code (linux/input-event-codes.h).
    var code: UInt32
    /// The action `[keys]` binds to this key, if any.
    var action: KeyAction?
    /// The editing or navigation key this is, on the keyboard's layout.
    var symbol: KeySymbol?
    /// The characters it types on the keyboard's layout with the modifiers held;
    /// nil for keys that type nothing (arrows, Escape, function keys) and while
    /// Control or Alt is held.
    var text: String?
    var modifiers: KeyModifiers = []
    /// CLOCK_MONOTONIC seconds of the press (of the repeat, for repeats).
    var time: Double
    var isRepeat = false
}

/// The keys the console navigates and edits with.
enum KeySymbol: String, Sendable, Equatable, CaseIterable {
    case up, down, left, right, home, end, pageUp, pageDown
    case enter, escape, tab, backspace, delete, space
    case f2
}

struct KeyModifiers: OptionSet, Sendable, Hashable {
    let rawValue: UInt8
    static let shift = KeyModifiers(rawValue: 1 << 0)
    static let control = KeyModifiers(rawValue: 1 << 1)
    static let alt = KeyModifiers(rawValue: 1 << 2)
}
