import Foundation
import Testing
@testable import Kiosk
@testable import Stage

/// rig.toml `[keyboard]`: typed values, and a layout XKB does not know as a warning
/// with its place (the kiosk keeps the rest of the file).
@Suite struct KeyboardConfigTests {
    static let hasXKBData = FileManager.default.fileExists(atPath: "/usr/share/X11/xkb/rules/evdev")
    static let hasGerman = FileManager.default.fileExists(atPath: "/usr/share/X11/xkb/symbols/de")

    @Test func defaultIsUSWithNoVariant() {
        let config = ConfigLoader.load(text: "", name: "rig.toml").config
        #expect(config.keyboard.names == KeyboardLayoutNames(layout: "us", variant: ""))
        #expect(config.keyboard.places.isEmpty)
    }

    @Test(.enabled(if: hasGerman)) func aKnownLayoutLoadsWithItsPlaces() {
        let result = ConfigLoader.load(text: "[keyboard]\nlayout = \"de\"\nvariant = \"nodeadkeys\"\n", name: "rig.toml")
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.config.keyboard.names == KeyboardLayoutNames(layout: "de", variant: "nodeadkeys"))
        #expect(result.config.keyboard.places["keyboard.layout"] == ConfigPlace(file: "rig.toml", line: 2, column: 10))
        let input = InputConfiguration(config: result.config, outerWidth: 1920, outerHeight: 1080,
                                       innerWidth: 1280, innerHeight: 800)
        #expect(input.keyboard == KeyboardLayoutNames(layout: "de", variant: "nodeadkeys"))
        #expect(input.keyboardPlaces["keyboard.variant"] == ConfigPlace(file: "rig.toml", line: 3, column: 11))
    }

    @Test(.enabled(if: hasXKBData)) func anUnknownLayoutIsAWarningAtItsLine() {
        let result = ConfigLoader.load(text: "[prompter]\nspeed = 90\n[keyboard]\nlayout = \"xx\"\n", name: "rig.toml")
        #expect(result.errors.isEmpty)
        #expect(result.warnings.map(\.description) == [
            "rig.toml:4:10: warning: keyboard.layout: XKB has no keyboard layout \"xx\" (the layouts are listed in "
                + "/usr/share/X11/xkb/rules/evdev.lst, e.g. \"us\", \"gb\", \"de\", \"fr\"); keys type no text",
        ])
        // The rest of the file still counts.
        #expect(result.config.prompter.speed == 90)
        #expect(result.config.keyboard.layout == "xx")
    }

    @Test(.enabled(if: hasXKBData)) func anUnknownVariantIsPlacedAtTheVariant() {
        let result = ConfigLoader.load(text: "[keyboard]\nlayout = \"us\"\nvariant = \"nosuch\"\n", name: "rig.toml")
        #expect(result.warnings.map(\.description) == [
            "rig.toml:3:11: warning: keyboard.variant: XKB's layout \"us\" has no variant \"nosuch\" (the variants "
                + "are listed in /usr/share/X11/xkb/rules/evdev.lst); keys type no text",
        ])
    }

    @Test(.enabled(if: hasXKBData)) func overridesAreCheckedToo() {
        let result = ConfigLoader.load(text: "", name: "rig.toml", overrides: ["keyboard.layout=zz"])
        #expect(result.warnings.map(\.description).first?
            .hasPrefix("--set #1 keyboard.layout=zz: warning: keyboard.layout: XKB has no keyboard layout \"zz\"") == true)
    }

    @Test func wrongTypesAndShapesAreErrors() {
        let text = "[keyboard]\nlayout = 5\nvariant = \"../../etc\"\n"
        let result = ConfigLoader.load(text: text, name: "rig.toml")
        #expect(result.errors.map(\.description) == [
            "rig.toml:2:10: keyboard.layout must be a string such as \"us\", found an integer",
            "rig.toml:3:11: keyboard.variant must be an XKB name such as \"us\" or \"nodeadkeys\" (letters, digits, _ - , ( )), found \"../../etc\"",
        ])
        let empty = ConfigLoader.load(text: "[keyboard]\nlayout = \"\"\n", name: "rig.toml")
        #expect(empty.errors.map(\.description) == [
            "rig.toml:2:10: keyboard.layout must name an XKB layout such as \"us\", \"de\" or \"fr\"",
        ])
        #expect(empty.config.keyboard.layout == "us")
    }
}
