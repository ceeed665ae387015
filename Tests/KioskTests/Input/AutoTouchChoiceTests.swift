import Testing
@testable import Kiosk

/// `[touch] device = "auto"`: the only touchscreen present is the participant's; with
/// several the rig picks none and the banner names them.
@Suite struct AutoTouchChoiceTests {
    static func device(_ sysname: String, _ name: String, touch: Bool = true) -> InputDeviceInfo {
        InputDeviceInfo(name: name, sysname: sysname, capabilities: touch ? [.touch] : [.keyboard], role: .inner)
    }

    @Test func theOnlyTouchscreenIsTheParticipants() {
        let devices = [Self.device("event2", "AT Translated Set 2 keyboard", touch: false), Self.device("event5", "ILITEK-TP")]
        let choice = AutoTouchChoice(touchscreens: devices.filter { $0.capabilities.contains(.touch) })
        #expect(choice.chosen == "event5" && choice.problem == nil)
        #expect(choice.apply(to: devices).map(\.role) == [.inner, .outerTouchscreen])
    }

    @Test func severalTouchscreensPickNoneAndSayWhichToChoose() {
        let devices = [Self.device("event5", "ILITEK-TP"), Self.device("event7", "eGalax Inc.")]
        let choice = AutoTouchChoice(touchscreens: devices)
        #expect(choice.chosen == nil)
        #expect(choice.problem == "input: [touch] device = \"auto\" found 2 touchscreens (\"ILITEK-TP\", \"eGalax Inc.\"); "
                + "set [touch] device to the one on the participant's display")
        #expect(choice.apply(to: devices).allSatisfy { $0.role == .inner })
    }

    @Test func noTouchscreenIsNoneWithoutABannerLine() {
        let choice = AutoTouchChoice(touchscreens: [])
        #expect(choice.chosen == nil && choice.problem == nil)
    }

    @Test func autoIsReadFromRigToml() {
        #expect(OuterTouchSelector(configValue: "auto") == .auto)
        #expect(OuterTouchSelector(configValue: "") == nil)
        #expect(RigConfig.Touch().device == "auto")
        #expect(RigConfig.Audio().input == "auto")
    }
}
