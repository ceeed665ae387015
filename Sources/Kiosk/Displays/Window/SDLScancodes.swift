import CInput
import CSDL

/// SDL's scancodes (USB HID usages, the key's place on the keyboard) as the evdev codes
/// the kiosk's bindings and XKB layouts speak, so `[keys]` and `[keyboard]` mean the
/// same in a window as on the rig. The inverse of SDL's own evdev table for the keys a
/// PC keyboard has.
enum SDLScancodes {
    static func evdevCode(_ scancode: UInt32) -> UInt32? {
        table[scancode].map(UInt32.init)
    }

    private static let table: [UInt32: Int32] = {
        var map: [UInt32: Int32] = [:]
        func add(_ scancode: SDL_Scancode, _ code: Int32) { map[scancode.rawValue] = code }
        let letters: [Int32] = [KEY_A, KEY_B, KEY_C, KEY_D, KEY_E, KEY_F, KEY_G, KEY_H, KEY_I, KEY_J, KEY_K, KEY_L, KEY_M,
                                KEY_N, KEY_O, KEY_P, KEY_Q, KEY_R, KEY_S, KEY_T, KEY_U, KEY_V, KEY_W, KEY_X, KEY_Y, KEY_Z]
        for (i, code) in letters.enumerated() { map[SDL_SCANCODE_A.rawValue + UInt32(i)] = code }
        let digits: [Int32] = [KEY_1, KEY_2, KEY_3, KEY_4, KEY_5, KEY_6, KEY_7, KEY_8, KEY_9, KEY_0]
        for (i, code) in digits.enumerated() { map[SDL_SCANCODE_1.rawValue + UInt32(i)] = code }
        let functions: [Int32] = [KEY_F1, KEY_F2, KEY_F3, KEY_F4, KEY_F5, KEY_F6, KEY_F7, KEY_F8, KEY_F9, KEY_F10,
                                  KEY_F11, KEY_F12]
        for (i, code) in functions.enumerated() { map[SDL_SCANCODE_F1.rawValue + UInt32(i)] = code }
        let keypad: [Int32] = [KEY_KP1, KEY_KP2, KEY_KP3, KEY_KP4, KEY_KP5, KEY_KP6, KEY_KP7, KEY_KP8, KEY_KP9, KEY_KP0]
        for (i, code) in keypad.enumerated() { map[SDL_SCANCODE_KP_1.rawValue + UInt32(i)] = code }
        add(SDL_SCANCODE_RETURN, KEY_ENTER); add(SDL_SCANCODE_ESCAPE, KEY_ESC)
        add(SDL_SCANCODE_BACKSPACE, KEY_BACKSPACE); add(SDL_SCANCODE_TAB, KEY_TAB); add(SDL_SCANCODE_SPACE, KEY_SPACE)
        add(SDL_SCANCODE_MINUS, KEY_MINUS); add(SDL_SCANCODE_EQUALS, KEY_EQUAL)
        add(SDL_SCANCODE_LEFTBRACKET, KEY_LEFTBRACE); add(SDL_SCANCODE_RIGHTBRACKET, KEY_RIGHTBRACE)
        add(SDL_SCANCODE_BACKSLASH, KEY_BACKSLASH); add(SDL_SCANCODE_NONUSHASH, KEY_BACKSLASH)
        add(SDL_SCANCODE_SEMICOLON, KEY_SEMICOLON); add(SDL_SCANCODE_APOSTROPHE, KEY_APOSTROPHE)
        add(SDL_SCANCODE_GRAVE, KEY_GRAVE); add(SDL_SCANCODE_COMMA, KEY_COMMA); add(SDL_SCANCODE_PERIOD, KEY_DOT)
        add(SDL_SCANCODE_SLASH, KEY_SLASH); add(SDL_SCANCODE_CAPSLOCK, KEY_CAPSLOCK)
        add(SDL_SCANCODE_PRINTSCREEN, KEY_SYSRQ); add(SDL_SCANCODE_SCROLLLOCK, KEY_SCROLLLOCK)
        add(SDL_SCANCODE_PAUSE, KEY_PAUSE); add(SDL_SCANCODE_INSERT, KEY_INSERT); add(SDL_SCANCODE_HOME, KEY_HOME)
        add(SDL_SCANCODE_PAGEUP, KEY_PAGEUP); add(SDL_SCANCODE_DELETE, KEY_DELETE); add(SDL_SCANCODE_END, KEY_END)
        add(SDL_SCANCODE_PAGEDOWN, KEY_PAGEDOWN); add(SDL_SCANCODE_RIGHT, KEY_RIGHT); add(SDL_SCANCODE_LEFT, KEY_LEFT)
        add(SDL_SCANCODE_DOWN, KEY_DOWN); add(SDL_SCANCODE_UP, KEY_UP); add(SDL_SCANCODE_NUMLOCKCLEAR, KEY_NUMLOCK)
        add(SDL_SCANCODE_KP_DIVIDE, KEY_KPSLASH); add(SDL_SCANCODE_KP_MULTIPLY, KEY_KPASTERISK)
        add(SDL_SCANCODE_KP_MINUS, KEY_KPMINUS); add(SDL_SCANCODE_KP_PLUS, KEY_KPPLUS)
        add(SDL_SCANCODE_KP_ENTER, KEY_KPENTER); add(SDL_SCANCODE_KP_PERIOD, KEY_KPDOT)
        add(SDL_SCANCODE_NONUSBACKSLASH, KEY_102ND); add(SDL_SCANCODE_APPLICATION, KEY_COMPOSE)
        add(SDL_SCANCODE_LCTRL, KEY_LEFTCTRL); add(SDL_SCANCODE_LSHIFT, KEY_LEFTSHIFT)
        add(SDL_SCANCODE_LALT, KEY_LEFTALT); add(SDL_SCANCODE_LGUI, KEY_LEFTMETA)
        add(SDL_SCANCODE_RCTRL, KEY_RIGHTCTRL); add(SDL_SCANCODE_RSHIFT, KEY_RIGHTSHIFT)
        add(SDL_SCANCODE_RALT, KEY_RIGHTALT); add(SDL_SCANCODE_RGUI, KEY_RIGHTMETA)
        return map
    }()
}
