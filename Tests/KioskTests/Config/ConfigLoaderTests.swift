import Foundation
import Testing
@testable import Kiosk
@testable import Stage

@Suite struct ConfigLoaderTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func emptyFileGivesEveryDefault() {
        let result = ConfigLoader.load(text: "", name: "rig.toml")
        #expect(result.problems.isEmpty)
        #expect(result.config == RigConfig())
    }

    @Test func exampleConfigurationIsValidAndDocumentsTheDefaults() {
        let path = Self.repositoryRoot.appendingPathComponent("rig.toml").path
        let result = ConfigLoader.load(path: path)
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.config == RigConfig())
    }

    @Test func everyKeyOfTheSchemaIsInTheExample() throws {
        let path = Self.repositoryRoot.appendingPathComponent("rig.toml").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for key in ConfigSchema.keys {
            let name = String(key.path.split(separator: ".").last ?? "")
            #expect(text.contains("\n\(name) = "), "rig.toml does not document \(key.path)")
        }
    }

    @Test func outOfRangeValueNamesItsPlace() {
        let result = ConfigLoader.load(text: "[prompter]\nspeed = 500\n", name: "rig.toml")
        #expect(result.errors.map(\.description) == ["rig.toml:2:9: prompter.speed must be between 10 and 300, found 500"])
        #expect(result.config.prompter.speed == 60)
    }

    /// Found by the config fuzz target: a number too big for an Int in a range message
    /// stopped the kiosk (fuzz/regressions/config/huge-float-in-range-message.toml).
    @Test func hugeAndInfiniteNumbersAreOutOfRangeNotACrash() {
        let text = "[prompter]\nline_spacing = 1e308\nmarker_position = -inf\n[follow]\nlead = nan\n"
        let result = ConfigLoader.load(text: text, name: "rig.toml")
        #expect(result.errors.map(\.description) == [
            "rig.toml:2:16: prompter.line_spacing must be between 1 and 2, found 1e+308",
            "rig.toml:3:19: prompter.marker_position must be between 0.1 and 0.9, found -inf",
            "rig.toml:5:8: follow.lead must be between -3 and 3, found nan",
        ])
        #expect(result.config.prompter.lineSpacing == RigConfig().prompter.lineSpacing)
    }

    @Test func wrongTypesAreErrorsWithPlaces() {
        let text = """
            [prompter]
            font_size = "big"
            mirror = 1
            line_spacing = 2.5
            [displays.outer]
            mode = "1920x"
            rotation = 45
            """
        let result = ConfigLoader.load(text: text, name: "rig.toml")
        let messages = result.errors.map(\.description)
        #expect(messages == [
            "rig.toml:2:13: prompter.font_size must be an integer, found a string",
            "rig.toml:3:10: prompter.mirror must be true or false, found an integer",
            "rig.toml:4:16: prompter.line_spacing must be between 1 and 2, found 2.5",
            "rig.toml:6:8: displays.outer.mode must be \"preferred\" or WIDTHxHEIGHT[@HZ] such as \"1920x1080@60\", found \"1920x\"",
            "rig.toml:7:12: displays.outer.rotation must be 0, 90, 180 or 270, found 45",
        ])
    }

    @Test func invalidTOMLIsLocated() {
        let result = ConfigLoader.load(text: "[prompter]\nspeed = = 3\n", name: "rig.toml")
        let error = result.errors.first
        #expect(error?.line == 2)
        #expect(error?.message.hasPrefix("invalid TOML") == true)
        #expect(result.config == RigConfig())
    }

    @Test func duplicateKeysAreErrors() {
        let result = ConfigLoader.load(text: "[prompter]\nspeed = 70\nspeed = 80\n", name: "rig.toml")
        #expect(result.errors.count == 1)
        #expect(result.errors.first?.line == 3)
    }

    @Test func duplicateSectionsAreErrors() {
        let result = ConfigLoader.load(text: "[camera]\nfps = 25\n[camera]\n", name: "rig.toml")
        #expect(result.errors.first?.line == 3)
    }

    @Test func unknownKeysAndSectionsAreWarningsWithSuggestions() {
        let text = "[prompter]\nfont_sise = 40\n[camra]\nfps = 3\n[weather]\n"
        let result = ConfigLoader.load(text: text, name: "rig.toml")
        #expect(result.errors.isEmpty)
        #expect(result.warnings.map(\.description) == [
            "rig.toml:2:13: warning: unknown key prompter.font_sise, ignored (did you mean prompter.font_size?)",
            "rig.toml:3:1: warning: unknown section [camra], ignored (did you mean [camera]?)",
            "rig.toml:5:1: warning: unknown section [weather], ignored",
        ])
    }

    @Test func valuesAreTyped() {
        let text = """
            [displays.inner]
            connector = "HDMI-A-1"
            mode = "1920x1080@60"
            [prompter]
            text_color = "Yellow"
            line_spacing = 2
            [touch]
            calibration = [0, 1, 0, -1, 0, 1]
            [keys]
            play_pause = ["Space", "P"]
            """
        let result = ConfigLoader.load(text: text, name: "rig.toml")
        #expect(result.problems.isEmpty)
        #expect(result.config.displays.inner.connector == "HDMI-A-1")
        #expect(result.config.displays.inner.mode == .size(width: 1920, height: 1080, refresh: 60))
        #expect(result.config.prompter.textColor == "yellow")
        #expect(result.config.prompter.lineSpacing == 2)
        #expect(result.config.touch.calibration == [0, 1, 0, -1, 0, 1])
        #expect(result.config.keys["play_pause"] == ["Space", "P"])
    }

    @Test func unknownActionInKeysIsAnError() {
        let result = ConfigLoader.load(text: "[keys]\nplay_pase = [\"Space\"]\n", name: "rig.toml")
        #expect(result.errors.map(\.description) == [
            "rig.toml:2:13: unknown action \"play_pase\" in [keys] (did you mean \"play_pause\"?)",
        ])
    }

    @Test func unknownKeyNamesAndDoubleBindingsAreErrors() {
        let text = "[keys]\nplay_pause = [\"Spacebar\"]\nmirror = [\"M\"]\nflip = [\"M\"]\n"
        let result = ConfigLoader.load(text: text, name: "rig.toml")
        #expect(result.errors.map(\.description) == [
            "rig.toml:2:14: unknown key name \"Spacebar\" for play_pause in [keys] (examples: Space, Up, PageDown, B, Period, Plus, KP_Add, F5)",
            "rig.toml:4:8: key \"M\" is bound to both mirror and flip in [keys]",
        ])
    }

    @Test func overridesGoThroughTheSameValidation() {
        let result = ConfigLoader.load(text: "", name: "rig.toml",
                                       overrides: ["prompter.mirror=true", "prompter.rotation=90",
                                                   "prompter.text_color=cream", "prompter.speed=500",
                                                   "prompter.sped=5", "nonsense"])
        #expect(result.config.prompter.mirror)
        #expect(result.config.prompter.rotation == 90)
        #expect(result.config.prompter.textColor == "cream")
        #expect(result.config.prompter.speed == 60)
        #expect(result.errors.map(\.description) == [
            "--set #4 prompter.speed=500: prompter.speed must be between 10 and 300, found 500",
            "--set #5 prompter.sped=5: unknown key prompter.sped (did you mean prompter.speed?)",
            "--set #6 nonsense: expected KEY=VALUE, such as prompter.speed=90",
        ])
    }

    @Test func missingFileIsAClearError() {
        let result = ConfigLoader.load(path: "/nonexistent/rig.toml")
        #expect(result.errors.map(\.description) == ["/nonexistent/rig.toml: no such file; rig check --config PATH takes a rig.toml"])
    }

    @Test func directoryIsAClearError() {
        let result = ConfigLoader.load(path: NSTemporaryDirectory())
        #expect(result.errors.first?.message == "is a directory, not a rig.toml file")
    }

    @Test func invalidUTF8ReportsTheByteOffset() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rig-\(UUID()).toml")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("[prompter]\n# caf".utf8 + [0xC3, 0x28] + Data("\n".utf8)).write(to: url)
        let result = ConfigLoader.load(path: url.path)
        #expect(result.errors.first?.message == "is not UTF-8: invalid byte 0x28 at byte offset 17")
    }

    @Test func utf8ValidationAcceptsEveryWidthAndRejectsOverlongs() {
        #expect(ConfigLoader.firstInvalidUTF8(in: Data("aé€😀".utf8)) == nil)
        #expect(ConfigLoader.firstInvalidUTF8(in: Data([0x61, 0xC0, 0x80])) == 1)
        #expect(ConfigLoader.firstInvalidUTF8(in: Data([0xE0, 0x80, 0x80])) == 1)
        #expect(ConfigLoader.firstInvalidUTF8(in: Data([0xF0, 0x9F])) == 0)
        #expect(ConfigLoader.firstInvalidUTF8(in: Data([0xED, 0xA0, 0x80])) == 1)
    }

    @Test func displayModesParse() {
        #expect(DisplayMode(parsing: "preferred") == .preferred)
        #expect(DisplayMode(parsing: "3840x2160") == .size(width: 3840, height: 2160, refresh: nil))
        #expect(DisplayMode(parsing: "1280x800@75") == .size(width: 1280, height: 800, refresh: 75))
        #expect(DisplayMode(parsing: "1280x800@") == nil)
        #expect(DisplayMode(parsing: "x800") == nil)
        #expect(DisplayMode(parsing: "0x0") == nil)
    }
}
