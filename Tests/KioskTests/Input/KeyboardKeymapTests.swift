import CInput
import Foundation
import Testing
@testable import Kiosk
@testable import Stage

/// The keymap wrapper against the real libxkbcommon and Debian's xkb-data.
@Suite struct KeyboardKeymapTests {
    static let hasXKBData = FileManager.default.fileExists(atPath: "/usr/share/X11/xkb/rules/evdev")
    static let hasGerman = FileManager.default.fileExists(atPath: "/usr/share/X11/xkb/symbols/de")

    private func code(_ key: Int32) -> UInt32 { UInt32(key) }

    private func state(_ layout: String = "us", variant: String = "") throws -> KeyboardState {
        let keymap = try KeyboardKeymap(names: KeyboardLayoutNames(layout: layout, variant: variant))
        return try #require(KeyboardState(keymap: keymap))
    }

    /// Presses and releases `key` with `held` down around it; returns what the press meant.
    private func type(_ key: Int32, holding held: [Int32] = [], on keyboard: KeyboardState) -> KeyMeaning {
        for modifier in held { _ = keyboard.press(code: code(modifier)) }
        let meaning = keyboard.press(code: code(key))
        keyboard.release(code: code(key))
        for modifier in held.reversed() { keyboard.release(code: code(modifier)) }
        return meaning
    }

    @Test(.enabled(if: hasXKBData)) func usLayoutTypesLettersAndDigits() throws {
        let keyboard = try state()
        #expect(type(KEY_A, on: keyboard) == KeyMeaning(symbol: nil, text: "a", modifiers: []))
        #expect(type(KEY_A, holding: [KEY_LEFTSHIFT], on: keyboard) == KeyMeaning(symbol: nil, text: "A", modifiers: .shift))
        #expect(type(KEY_1, on: keyboard).text == "1")
        #expect(type(KEY_1, holding: [KEY_RIGHTSHIFT], on: keyboard).text == "!")
        // Shift was released: the next key is lower case again.
        #expect(type(KEY_H, on: keyboard).text == "h")
        #expect(type(KEY_SPACE, on: keyboard) == KeyMeaning(symbol: .space, text: " ", modifiers: []))
    }

    @Test(.enabled(if: hasXKBData)) func editingKeysHaveASymbolAndNoText() throws {
        let keyboard = try state()
        let cases: [(Int32, KeySymbol)] = [
            (KEY_ENTER, .enter), (KEY_KPENTER, .enter), (KEY_BACKSPACE, .backspace), (KEY_TAB, .tab),
            (KEY_DELETE, .delete), (KEY_ESC, .escape), (KEY_UP, .up), (KEY_DOWN, .down), (KEY_LEFT, .left),
            (KEY_RIGHT, .right), (KEY_HOME, .home), (KEY_END, .end), (KEY_PAGEUP, .pageUp),
            (KEY_PAGEDOWN, .pageDown), (KEY_F2, .f2),
            // NumLock is off: the keypad's 8 is an arrow.
            (KEY_KP8, .up),
        ]
        for (key, symbol) in cases {
            let meaning = type(key, on: keyboard)
            #expect(meaning.symbol == symbol, "key \(key)")
            #expect(meaning.text == nil, "key \(key) typed \(String(describing: meaning.text))")
        }
        let backTab = type(KEY_TAB, holding: [KEY_LEFTSHIFT], on: keyboard)
        #expect(backTab == KeyMeaning(symbol: .tab, text: nil, modifiers: .shift))
        #expect(type(KEY_A, on: keyboard).symbol == nil)
    }

    @Test(.enabled(if: hasXKBData)) func controlAndAltTypeNothingButReportTheModifier() throws {
        let keyboard = try state()
        #expect(type(KEY_A, holding: [KEY_LEFTCTRL], on: keyboard) == KeyMeaning(symbol: nil, text: nil, modifiers: .control))
        #expect(type(KEY_S, holding: [KEY_LEFTALT], on: keyboard) == KeyMeaning(symbol: nil, text: nil, modifiers: .alt))
        let both = type(KEY_Z, holding: [KEY_RIGHTCTRL, KEY_LEFTSHIFT], on: keyboard)
        #expect(both == KeyMeaning(symbol: nil, text: nil, modifiers: [.control, .shift]))
        #expect(type(KEY_HOME, holding: [KEY_LEFTCTRL], on: keyboard) == KeyMeaning(symbol: .home, text: nil, modifiers: .control))
    }

    @Test(.enabled(if: hasXKBData)) func capsLockShiftsLettersAndIsPerKeyboard() throws {
        let keymap = try KeyboardKeymap()
        let keyboard = try #require(KeyboardState(keymap: keymap))
        let clicker = try #require(KeyboardState(keymap: keymap))
        _ = type(KEY_CAPSLOCK, on: keyboard)
        // CapsLock is not Shift for the console: Shift+Tab and Tab stay apart.
        #expect(type(KEY_Q, on: keyboard) == KeyMeaning(symbol: nil, text: "Q", modifiers: []))
        #expect(type(KEY_1, on: keyboard).text == "1")
        #expect(type(KEY_Q, on: clicker).text == "q")
        _ = keyboard.press(code: code(KEY_LEFTSHIFT))
        #expect(type(KEY_W, on: clicker).text == "w")
        #expect(type(KEY_W, on: keyboard).text == "w")
    }

    @Test(.enabled(if: hasGerman)) func germanLayoutMovesLettersAndAltGrTypes() throws {
        let keyboard = try state("de")
        #expect(type(KEY_Y, on: keyboard).text == "z")
        #expect(type(KEY_Z, on: keyboard).text == "y")
        #expect(type(KEY_SEMICOLON, on: keyboard).text == "ö")
        // AltGr is not Alt: it types, and the console sees no modifier.
        #expect(type(KEY_Q, holding: [KEY_RIGHTALT], on: keyboard) == KeyMeaning(symbol: nil, text: "@", modifiers: []))
        #expect(try KeyboardKeymap(names: KeyboardLayoutNames(layout: "de", variant: "nodeadkeys")).layoutName
            == "German (no dead keys)")
    }

    @Test(.enabled(if: hasXKBData)) func modifiersDoNotRepeatOtherKeysDo() throws {
        let keymap = try KeyboardKeymap()
        for key in [KEY_A, KEY_BACKSPACE, KEY_UP, KEY_SPACE, KEY_PAGEDOWN] { #expect(keymap.repeats(code: code(key)), "key \(key)") }
        for key in [KEY_LEFTSHIFT, KEY_RIGHTCTRL, KEY_LEFTALT, KEY_CAPSLOCK] { #expect(!keymap.repeats(code: code(key)), "key \(key)") }
        #expect(keymap.layoutName == "English (US)")
    }

    @Test(.enabled(if: hasXKBData)) func unknownLayoutOrVariantIsAClearError() {
        #expect(throws: KeyboardKeymapError.unknownLayout("xx")) {
            try KeyboardKeymap(names: KeyboardLayoutNames(layout: "xx"))
        }
        #expect(throws: KeyboardKeymapError.unknownVariant(layout: "us", variant: "nosuch")) {
            try KeyboardKeymap(names: KeyboardLayoutNames(layout: "us", variant: "nosuch"))
        }
        let message = KeyboardKeymapError.unknownLayout("xx").description
        #expect(message.contains("\"xx\"") && message.contains("evdev.lst"))
    }

    @Test func missingXKBDataIsAClearError() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("rig-no-xkb-\(getpid())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(throws: KeyboardKeymapError.noLayoutData(searched: [empty.path])) {
            try KeyboardKeymap(includePaths: [empty.path])
        }
        let error = KeyboardKeymapError.noLayoutData(searched: [empty.path])
        #expect(error.operatorMessage(places: [:])
            == "keyboard.layout: no XKB keyboard layouts found (searched \(empty.path)); install the xkb-data package; keys type no text")
    }

    @Test func operatorMessageNamesTheKeyAtFault() {
        let places = ["keyboard.layout": ConfigPlace(file: "/etc/rig/rig.toml", line: 40, column: 10),
                      "keyboard.variant": ConfigPlace(file: "/etc/rig/rig.toml", line: 41, column: 11)]
        #expect(KeyboardKeymapError.unknownLayout("xx").operatorMessage(places: places)
            .hasPrefix("/etc/rig/rig.toml:40:10: keyboard.layout: XKB has no keyboard layout \"xx\""))
        #expect(KeyboardKeymapError.unknownVariant(layout: "de", variant: "x").operatorMessage(places: places)
            .hasPrefix("/etc/rig/rig.toml:41:11: keyboard.variant: XKB's layout \"de\" has no variant \"x\""))
        // Only the variant was set: a failing layout is placed at the [keyboard] line there is.
        let variantOnly = ["keyboard.variant": ConfigPlace(file: "rig.toml", line: 3, column: 11)]
        #expect(KeyboardKeymapError.noLayoutData(searched: []).operatorMessage(places: variantOnly)
            .hasPrefix("rig.toml:3:11: keyboard.layout: no XKB keyboard layouts found"))
    }

    /// InputDevices on this machine's libinput (no devices are needed): a layout XKB
    /// lacks leaves it without a keymap, with the message and place the banner shows.
    @Test(.enabled(if: hasXKBData)) func inputDevicesFallBackAndSayWhy() throws {
        let loop = try EventLoop()
        var configuration = InputConfiguration()
        #expect(try InputDevices(loop: loop, configuration: configuration, opener: DirectInputDeviceOpener()) { _ in }
            .keymapProblem == nil)
        configuration.keyboard = KeyboardLayoutNames(layout: "xx")
        configuration.keyboardPlaces = ["keyboard.layout": ConfigPlace(file: "/etc/rig/rig.toml", line: 12, column: 10)]
        let devices = try InputDevices(loop: loop, configuration: configuration, opener: DirectInputDeviceOpener()) { _ in }
        #expect(devices.keymap == nil)
        #expect(devices.keymapError == .unknownLayout("xx"))
        #expect(devices.keymapProblem?.hasPrefix("/etc/rig/rig.toml:12:10: keyboard.layout: XKB has no keyboard layout \"xx\"") == true)
    }

    @Test func fallbackKeepsTheUSEditingKeysAndTypesNothing() {
        #expect(KeyMeaning.fallback(code: code(KEY_ENTER)) == KeyMeaning(symbol: .enter, text: nil, modifiers: []))
        #expect(KeyMeaning.fallback(code: code(KEY_A)) == KeyMeaning(symbol: nil, text: nil, modifiers: []))
        #expect(KeyMeaning.fallbackRepeats(code: code(KEY_BACKSPACE)))
        #expect(!KeyMeaning.fallbackRepeats(code: code(KEY_LEFTSHIFT)))
    }

    @Test func keysymsMapToTheConsolesKeys() {
        #expect(KeyboardState.symbol(forKeysym: 0xfe20) == .tab) // ISO_Left_Tab
        #expect(KeyboardState.symbol(forKeysym: 0xff8d) == .enter) // KP_Enter
        #expect(KeyboardState.symbol(forKeysym: 0xff55) == .pageUp) // Prior
        #expect(KeyboardState.symbol(forKeysym: 0xff9b) == .pageDown) // KP_Next
        #expect(KeyboardState.symbol(forKeysym: 0x61) == nil) // a
    }
}
