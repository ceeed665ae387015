import CInput
import Testing
@testable import Kiosk
@testable import Stage

@Suite struct FollowConfigTests {
    @Test func followStartsOffAndEnabledTurnsItOn() {
        #expect(ConfigLoader.load(text: "", name: "rig.toml").config.follow.enabled == false)
        let on = ConfigLoader.load(text: "[follow]\nenabled = true\n", name: "rig.toml")
        #expect(on.errors.isEmpty, "\(on.errors)")
        #expect(on.config.follow.enabled == true)
    }

    @Test func aBadValueIsNamedWithItsPlace() {
        let bad = ConfigLoader.load(text: "[follow]\nenabled = 3\n", name: "rig.toml")
        #expect(bad.errors.map(\.description).first?.hasPrefix("rig.toml:2:11: follow.enabled") == true, "\(bad.errors)")
        #expect(bad.config.follow.enabled == false)
        let unknown = ConfigLoader.load(text: "[follow]\nlanguages = \"de\"\n", name: "rig.toml")
        #expect(unknown.warnings.map(\.description).contains { $0.contains("follow.languages") }, "\(unknown.problems)")
        let german = ConfigLoader.load(text: "[follow]\nlanguage = \"de\"\n", name: "rig.toml")
        #expect(german.problems.isEmpty && german.config.follow.language == "de", "\(german.problems)")
    }

    @Test func leadIsLinesAheadOfTheVoiceWithinThreeEitherWay() {
        #expect(ConfigLoader.load(text: "", name: "rig.toml").config.follow.lead == 0)
        let ahead = ConfigLoader.load(text: "[follow]\nlead = 1.5\n", name: "rig.toml")
        #expect(ahead.problems.isEmpty && ahead.config.follow.lead == 1.5, "\(ahead.problems)")
        let far = ConfigLoader.load(text: "[follow]\nlead = 5\n", name: "rig.toml")
        #expect(far.errors.map(\.description).first?.hasPrefix("rig.toml:2:8: follow.lead") == true, "\(far.errors)")
    }

    @Test func vTogglesFollowAndCanBeRebound() {
        #expect(KeyBindings.defaults.action(forKey: UInt32(KEY_V)) == .follow)
        #expect(KeyAction(rawValue: "follow") == .follow)
        #expect(!KeyAction.follow.repeatsWhileHeld)
    }
}
