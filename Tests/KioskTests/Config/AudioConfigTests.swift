import Testing
@testable import Kiosk

@Suite struct AudioConfigTests {
    @Test func defaultsPlayOnTheDefaultDeviceAndPickTheMicrophone() {
        let audio = ConfigLoader.load(text: "", name: "rig.toml").config.audio
        #expect(audio == RigConfig.Audio(output: "default", input: "auto", volume: 80, voice: "en-us", rate: 175))
    }

    @Test func valuesAreReadAndRangesCheckedWithTheirPlace() {
        let good = ConfigLoader.load(text: "[audio]\noutput = \"hw:CARD=Loopback,DEV=0\"\ninput = \"plughw:1,0\"\nvolume = 35\nvoice = \"de\"\nrate = 220\n",
                                     name: "rig.toml")
        #expect(good.errors.isEmpty, "\(good.errors)")
        #expect(good.config.audio == RigConfig.Audio(output: "hw:CARD=Loopback,DEV=0", input: "plughw:1,0", volume: 35, voice: "de", rate: 220))

        let bad = ConfigLoader.load(text: "[audio]\nvolume = 120\nrate = 40\noutput = 3\n", name: "rig.toml")
        #expect(bad.errors.map(\.description) == [
            "rig.toml:2:10: audio.volume must be between 0 and 100, found 120",
            "rig.toml:3:8: audio.rate must be between 80 and 450, found 40",
            "rig.toml:4:10: audio.output must be an ALSA device name such as \"default\" or \"hw:CARD=Device,DEV=0\" (\"\" for none), found an integer",
        ])
    }

    @Test func anUnknownVoiceIsNamedWithASuggestion() {
        let result = ConfigLoader.load(text: "[audio]\nvoice = \"en-uss\"\n", name: "rig.toml")
        #expect(result.errors.map(\.description) == [
            "rig.toml:2:9: audio.voice: espeak-ng has no voice \"en-uss\" (did you mean \"en-us\"?); `rig speak --voices` lists them",
        ])
        #expect(result.config.audio.voice == "en-us")
    }

    @Test func anEmptyOutputTurnsSoundOff() {
        let result = ConfigLoader.load(text: "", name: "t", overrides: ["audio.output=\"\""])
        #expect(result.errors.isEmpty)
        #expect(result.config.audio.output == "")
    }
}
