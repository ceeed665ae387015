import Testing
@testable import Kiosk

/// `[controllers.*]` in rig.toml: bad maps are errors with their place, and the file's
/// values reach the configuration.
@Suite struct ControllerConfigTests {
    @Test func badMapValuesAreErrorsWithTheirPlace() {
        let text = """
            [controllers.shuttle]
            steps = [15, 30, 5]
            [controllers.gamepad]
            axis = "ABS_Q"
            neutral = 1.5
            [controllers.midi]
            cc = 120
            steps = [20, "fast"]
            [controllers.wheel]
            action = "zoom"
            """
        let result = ConfigLoader.load(text: text, name: "rig.toml")
        #expect(result.errors.map(\.description) == [
            "rig.toml:2:9: controllers.shuttle.steps must be an array of 7 speeds in px/s such as [15, 30, 50]",
            "rig.toml:4:8: controllers.gamepad.axis must be one of \(GamepadAxes.names.map { "\"\($0)\"" }.joined(separator: ", ")), found \"ABS_Q\" (did you mean \"ABS_X\"?)",
            "rig.toml:5:11: controllers.gamepad.neutral must be between 0 and 0.9, found 1.5",
            "rig.toml:7:6: controllers.midi.cc must be between 0 and 119, found 120",
            "rig.toml:8:9: controllers.midi.steps must be an array of speeds, each between 10 and 300 px/s",
            "rig.toml:10:10: controllers.wheel.action must be one of \"speed\", \"scroll\", \"off\", found \"zoom\"",
        ])
        #expect(result.config.controllers == RigConfig.Controllers())
    }

    @Test func theFilesMapsReachTheConfiguration() {
        let text = """
            [controllers.shuttle]
            steps = [10, 20, 40, 80, 120, 200, 300]
            reverse_max = 0
            [controllers.midi]
            port = "nanoKONTROL"
            rest = 64
            [keys]
            play_pause = ["Space", "Note60", "Shuttle1"]
            """
        let result = ConfigLoader.load(text: text, name: "rig.toml")
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.config.controllers.shuttle.steps == [10, 20, 40, 80, 120, 200, 300])
        #expect(result.config.controllers.shuttle.reverseMax == 0)
        #expect(MIDIControllers.map(result.config.controllers.midi).speed(at: 0) == -150)
        #expect(MIDIControllers.map(result.config.controllers.midi).speed(at: 64) == 0)
        #expect(KeyNames.code(for: "Note60") == KeyNames.midiNoteBase + 60)
        #expect(KeyNames.code(for: "Shuttle1") == 0x104)
    }
}
