import CInput
import CXKB
import Stage

/// What one key press means to the operator console: the editing key it is, what it
/// types, and the modifiers held while it went down.
struct KeyMeaning: Sendable, Equatable {
    var symbol: KeySymbol?
    var text: String?
    var modifiers: KeyModifiers = []

    /// Without a keymap: the US meaning of the editing keys, and no text, since which
    /// character a key types depends on a layout the kiosk does not have.
    static func fallback(code: UInt32) -> KeyMeaning {
        KeyMeaning(symbol: KeyNames.symbol(for: code))
    }

    /// Without a keymap, every key but the modifiers and locks repeats, as on XKB's layouts.
    static func fallbackRepeats(code: UInt32) -> Bool {
        let modifiers: Set<Int32> = [KEY_LEFTSHIFT, KEY_RIGHTSHIFT, KEY_LEFTCTRL, KEY_RIGHTCTRL, KEY_LEFTALT,
                                     KEY_RIGHTALT, KEY_LEFTMETA, KEY_RIGHTMETA, KEY_CAPSLOCK, KEY_NUMLOCK,
                                     KEY_SCROLLLOCK]
        return !modifiers.contains(Int32(code))
    }
}

/// The owner of one xkb_state: the modifiers and locks of one physical keyboard, so
/// Shift on one keyboard does not capitalise a clicker's keys, and CapsLock is per device.
final class KeyboardState {
    /// xkb_state holds its own reference to the keymap; this one keeps `repeats` at hand.
    let keymap: KeyboardKeymap
    private let handle: OpaquePointer

    init?(keymap: KeyboardKeymap) {
        guard let state = xkb_state_new(keymap.handle) else { return nil }
        self.keymap = keymap
        handle = state
    }

    deinit { xkb_state_unref(handle) }

    /// The meaning of a press of the evdev `code` with what is held now; the press then
    /// joins the state (a Shift press shifts the keys after it).
    func press(code: UInt32) -> KeyMeaning {
        let keycode = KeyboardKeymap.keycode(code)
        let meaning = KeyMeaning(symbol: Self.symbol(forKeysym: xkb_state_key_get_one_sym(handle, keycode)),
                                 text: text(keycode), modifiers: modifiers)
        _ = xkb_state_update_key(handle, keycode, XKB_KEY_DOWN)
        return meaning
    }

    func release(code: UInt32) {
        _ = xkb_state_update_key(handle, KeyboardKeymap.keycode(code), XKB_KEY_UP)
    }

    /// Shift, Control and Alt as held now. CapsLock is not Shift: it changes the text,
    /// not the modifiers the console sees (Shift+Tab stays Shift+Tab).
    var modifiers: KeyModifiers {
        var held: KeyModifiers = []
        if isActive(XKB_MOD_NAME_SHIFT) { held.insert(.shift) }
        if isActive(XKB_MOD_NAME_CTRL) { held.insert(.control) }
        if isActive(XKB_MOD_NAME_ALT) { held.insert(.alt) }
        return held
    }

    private func isActive(_ name: String) -> Bool {
        xkb_state_mod_name_is_active(handle, name, XKB_STATE_MODS_EFFECTIVE) > 0
    }

    /// What the key types, or nil: nothing typed, a shortcut (Control or Alt held; AltGr
    /// is not Alt and still types), or a control character (Return, Tab, BackSpace,
    /// Delete, Escape), which the console handles as `symbol` instead.
    private func text(_ keycode: xkb_keycode_t) -> String? {
        let held = modifiers
        guard !held.contains(.control), !held.contains(.alt) else { return nil }
        var buffer = [CChar](repeating: 0, count: 64)
        let length = Int(xkb_state_key_get_utf8(handle, keycode, &buffer, buffer.count))
        guard length > 0, length < buffer.count else { return nil }
        let text = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        return text
    }

    /// The console's keys by keysym, so a layout that moves them (or NumLock off on the
    /// keypad) still gives the right one.
    static func symbol(forKeysym keysym: xkb_keysym_t) -> KeySymbol? {
        switch Int32(bitPattern: keysym) {
        case XKB_KEY_Up, XKB_KEY_KP_Up: .up
        case XKB_KEY_Down, XKB_KEY_KP_Down: .down
        case XKB_KEY_Left, XKB_KEY_KP_Left: .left
        case XKB_KEY_Right, XKB_KEY_KP_Right: .right
        case XKB_KEY_Home, XKB_KEY_KP_Home: .home
        case XKB_KEY_End, XKB_KEY_KP_End: .end
        case XKB_KEY_Prior, XKB_KEY_KP_Prior: .pageUp
        case XKB_KEY_Next, XKB_KEY_KP_Next: .pageDown
        case XKB_KEY_Return, XKB_KEY_KP_Enter, XKB_KEY_ISO_Enter: .enter
        case XKB_KEY_Escape: .escape
        // Shift+Tab is ISO_Left_Tab; `modifiers` still says Shift.
        case XKB_KEY_Tab, XKB_KEY_ISO_Left_Tab, XKB_KEY_KP_Tab: .tab
        case XKB_KEY_BackSpace: .backspace
        case XKB_KEY_Delete, XKB_KEY_KP_Delete: .delete
        case XKB_KEY_space, XKB_KEY_KP_Space: .space
        case XKB_KEY_F2: .f2
        default: nil
        }
    }
}
