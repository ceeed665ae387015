import CInput
import Stage

/// Key names as rig.toml spells them, mapped to evdev key codes (linux/input-event-codes.h).
/// Names match case-insensitively; several spellings may name one key ("Period" and ".").
enum KeyNames {
    /// The evdev code for a rig.toml key name, or nil when the name is unknown.
    static func code(for name: String) -> UInt32? {
        table[name.lowercased()]
    }

    /// The preferred rig.toml spelling of an evdev code, for messages and `rig devices`.
    static func name(for code: UInt32) -> String? {
        preferred[code]
    }

    /// The console's meaning of a key on a US layout, until a keymap says otherwise.
    static func symbol(for code: UInt32) -> KeySymbol? {
        switch Int32(code) {
        case KEY_UP: .up
        case KEY_DOWN: .down
        case KEY_LEFT: .left
        case KEY_RIGHT: .right
        case KEY_HOME: .home
        case KEY_END: .end
        case KEY_PAGEUP: .pageUp
        case KEY_PAGEDOWN: .pageDown
        case KEY_ENTER, KEY_KPENTER: .enter
        case KEY_ESC: .escape
        case KEY_TAB: .tab
        case KEY_BACKSPACE: .backspace
        case KEY_DELETE: .delete
        case KEY_SPACE: .space
        case KEY_F2: .f2
        default: nil
        }
    }

    private static let spellings: [(names: [String], code: Int32)] = {
        var list: [(names: [String], code: Int32)] = [
            (["Space"], KEY_SPACE), (["Enter", "Return"], KEY_ENTER),
            (["Esc", "Escape"], KEY_ESC), (["Tab"], KEY_TAB),
            (["BackSpace"], KEY_BACKSPACE), (["Delete", "Del"], KEY_DELETE),
            (["Insert"], KEY_INSERT),
            (["Up"], KEY_UP), (["Down"], KEY_DOWN), (["Left"], KEY_LEFT), (["Right"], KEY_RIGHT),
            (["Home"], KEY_HOME), (["End"], KEY_END),
            // Clickers send PageUp/PageDown for back/forward; X11 calls them Prior/Next.
            (["PageUp", "Prior"], KEY_PAGEUP), (["PageDown", "Next"], KEY_PAGEDOWN),
            (["Period", "."], KEY_DOT), (["Comma", ","], KEY_COMMA),
            // "+" shares a key with "=" on most layouts; evdev has no separate plus key.
            (["Plus", "+", "Equal", "="], KEY_EQUAL), (["Minus", "-"], KEY_MINUS),
            (["Slash", "/"], KEY_SLASH), (["Semicolon", ";"], KEY_SEMICOLON),
            (["Apostrophe", "'"], KEY_APOSTROPHE), (["Grave", "`"], KEY_GRAVE),
            (["BracketLeft", "["], KEY_LEFTBRACE), (["BracketRight", "]"], KEY_RIGHTBRACE),
            (["Backslash", "\\"], KEY_BACKSLASH),
            (["KP_Add"], KEY_KPPLUS), (["KP_Subtract"], KEY_KPMINUS),
            (["KP_Multiply"], KEY_KPASTERISK), (["KP_Divide"], KEY_KPSLASH),
            (["KP_Enter"], KEY_KPENTER), (["KP_Decimal"], KEY_KPDOT),
            // Presentation clickers and foot pedals often send media or browser keys.
            (["PlayPause", "XF86AudioPlay"], KEY_PLAYPAUSE), (["StopCD", "XF86AudioStop"], KEY_STOPCD),
            (["NextSong", "XF86AudioNext"], KEY_NEXTSONG),
            (["PreviousSong", "XF86AudioPrev"], KEY_PREVIOUSSONG),
            (["VolumeUp", "XF86AudioRaiseVolume"], KEY_VOLUMEUP),
            (["VolumeDown", "XF86AudioLowerVolume"], KEY_VOLUMEDOWN),
            (["Mute", "XF86AudioMute"], KEY_MUTE),
            (["Back", "XF86Back"], KEY_BACK), (["Forward", "XF86Forward"], KEY_FORWARD),
        ]
        let letters: [Int32] = [KEY_A, KEY_B, KEY_C, KEY_D, KEY_E, KEY_F, KEY_G, KEY_H, KEY_I,
                                KEY_J, KEY_K, KEY_L, KEY_M, KEY_N, KEY_O, KEY_P, KEY_Q, KEY_R,
                                KEY_S, KEY_T, KEY_U, KEY_V, KEY_W, KEY_X, KEY_Y, KEY_Z]
        for (index, code) in letters.enumerated() {
            let letter = String(UnicodeScalar(UInt8(65 + index)))
            list.append(([letter], code))
        }
        let digits: [Int32] = [KEY_0, KEY_1, KEY_2, KEY_3, KEY_4, KEY_5, KEY_6, KEY_7, KEY_8, KEY_9]
        let keypad: [Int32] = [KEY_KP0, KEY_KP1, KEY_KP2, KEY_KP3, KEY_KP4, KEY_KP5, KEY_KP6,
                               KEY_KP7, KEY_KP8, KEY_KP9]
        for digit in 0...9 {
            list.append((["\(digit)"], digits[digit]))
            list.append((["KP_\(digit)"], keypad[digit]))
        }
        let functionKeys: [Int32] = [KEY_F1, KEY_F2, KEY_F3, KEY_F4, KEY_F5, KEY_F6, KEY_F7,
                                     KEY_F8, KEY_F9, KEY_F10, KEY_F11, KEY_F12]
        for (index, code) in functionKeys.enumerated() { list.append((["F\(index + 1)"], code)) }
        list += controllerButtons
        return list
    }()

    /// Hand controllers' buttons (issue 40), bound like keys. The ShuttleXpress's five
    /// are BTN_4…BTN_8 and a ShuttlePRO's fifteen BTN_0…BTN_9 and on (the kernel's
    /// hid-generic numbering, as Dan Dennedy's mediactrl.c tables them); gamepads use the
    /// kernel's BTN_SOUTH… names; MIDI notes are `Note0`…`Note127`, codes past evdev's.
    private static let controllerButtons: [(names: [String], code: Int32)] = {
        var list: [(names: [String], code: Int32)] = []
        for index in 0..<5 { list.append((["Shuttle\(index + 1)"], BTN_4 + Int32(index))) }
        for index in 0..<10 { list.append((["BTN_\(index)"], BTN_0 + Int32(index))) }
        list += [(["PadA", "BTN_SOUTH"], BTN_SOUTH), (["PadB", "BTN_EAST"], BTN_EAST),
                 (["PadX", "BTN_NORTH"], BTN_NORTH), (["PadY", "BTN_WEST"], BTN_WEST),
                 (["PadL", "BTN_TL"], BTN_TL), (["PadR", "BTN_TR"], BTN_TR),
                 (["PadSelect", "BTN_SELECT"], BTN_SELECT), (["PadStart", "BTN_START"], BTN_START)]
        for note in 0...127 { list.append((["Note\(note)"], Int32(midiNoteBase) + Int32(note))) }
        return list
    }()

    /// MIDI note n arrives as key code `midiNoteBase + n`, past every evdev code.
    static let midiNoteBase: UInt32 = 0x1000

    private static let table: [String: UInt32] = {
        var table: [String: UInt32] = [:]
        for entry in spellings {
            for name in entry.names { table[name.lowercased()] = UInt32(entry.code) }
        }
        return table
    }()

    private static let preferred: [UInt32: String] = {
        var names: [UInt32: String] = [:]
        for entry in spellings where names[UInt32(entry.code)] == nil {
            names[UInt32(entry.code)] = entry.names[0]
        }
        return names
    }()
}
