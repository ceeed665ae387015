import Testing
@testable import Kiosk

@Suite struct RecordingConfigTests {
    @Test func recordingKeysAreTypedAndRangedWithTheirPlace() {
        let text = "[recording]\nquality = 60\nretention_days = -1\nwidth = 100\npreset = \"veryfst\"\n"
        let result = ConfigLoader.load(text: text, name: "rig.toml")
        #expect(result.errors.map(\.description) == [
            "rig.toml:2:11: recording.quality must be between 0 and 51, found 60",
            "rig.toml:3:18: recording.retention_days must be between 0 and 3650, found -1",
            "rig.toml:4:9: recording.width must be 0 (as [camera]) or between 160 and 3840, found 100",
            "rig.toml:5:10: recording.preset must be one of \"ultrafast\", \"superfast\", \"veryfast\", \"faster\", "
                + "\"fast\", \"medium\", \"slow\", \"slower\", \"veryslow\", found \"veryfst\" (did you mean \"veryfast\"?)",
        ])
    }

    @Test func recordingSettingsFollowTheFile() {
        let text = "[state]\ndir = \"/srv/rig\"\n[recording]\nbitrate_kbps = 4000\nmin_free_mb = 64\nfps = 25\n"
        let config = ConfigLoader.load(text: text, name: "rig.toml").config
        #expect(config.recordingsDirectory == "/srv/rig/recordings")
        #expect(config.recorderSettings.quality == .bitrate(4_000_000))
        #expect(config.recorderSettings.minimumFreeBytes == 64 * 1_048_576)
        #expect(config.recorderSettings.nominalFrameRate == 25)
        let camera = CameraSettings(config.camera, recording: config.recording)
        #expect(camera.preferredFramesPerSecond == 25 && camera.preferredWidth == 1920 && camera.preferredHeight == 1080)
    }
}
