import Prompter
import Testing
@testable import Kiosk

/// `rig ctl set`: reading settings by rig.toml's keys, through the file's schema.
@Suite struct ReadingSettingKeysTests {
    @Test func readingSettingsCanBeSetByRigTomlKeys() {
        var settings = ReadingSettings.standard
        #expect(ReadingSettingKeys.apply(key: "prompter.mirror", value: "true", to: &settings) == nil)
        #expect(ReadingSettingKeys.apply(key: "prompter.text_color", value: "yellow", to: &settings) == nil)
        #expect(ReadingSettingKeys.apply(key: "prompter.font_size", value: "100", to: &settings) == nil)
        #expect(settings.mirror && settings.textColor == .yellow && settings.fontSize == 100)
        #expect(ReadingSettingKeys.apply(key: "prompter.font_size", value: "500", to: &settings)
            == "prompter.font_size must be between 20 and 120, found 500")
        #expect(ReadingSettingKeys.apply(key: "camera.fps", value: "5", to: &settings)?.hasPrefix("camera.fps is not a reading setting") == true)
        #expect(settings.fontSize == 100)
    }

    /// Issue 42's reading styles by name, as rig.toml and `rig ctl set` spell them; a
    /// misspelt value is refused with the words that are allowed.
    @Test func alignWeightAndTheMarksColoursAreReadingSettings() {
        var settings = ReadingSettings.standard
        #expect(ReadingSettingKeys.apply(key: "prompter.align", value: "\"centre\"", to: &settings) == nil)
        #expect(ReadingSettingKeys.apply(key: "prompter.weight", value: "\"semibold\"", to: &settings) == nil)
        #expect(ReadingSettingKeys.apply(key: "prompter.direction_color", value: "\"yellow\"", to: &settings) == nil)
        #expect(ReadingSettingKeys.apply(key: "prompter.highlight_color", value: "\"gray\"", to: &settings) == nil)
        #expect(settings.alignment == .centre && settings.weight == .semibold)
        #expect(settings.directionColor == .yellow && settings.highlightColor == .gray)
        let refused = ReadingSettingKeys.apply(key: "prompter.align", value: "\"center\"", to: &settings)
        #expect(refused?.contains("centre") == true, "\(refused ?? "")")
        #expect(settings.alignment == .centre)
        // The library's directions setting is rig.toml's, not a reading setting.
        #expect(ReadingSettingKeys.apply(key: "prompter.directions", value: "\"off\"", to: &settings)?
            .hasPrefix("prompter.directions is not a reading setting") == true)
    }
}
