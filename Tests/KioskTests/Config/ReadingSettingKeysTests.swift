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
}
