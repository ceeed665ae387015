import Foundation
import Media
import Testing
@testable import Kiosk

/// `rig speak` without a sound card: the WAV path and the clean refusals. (Playing
/// is the virtual rig's business: tests/audio_loopback.py.)
@Suite struct SpeakCommandTests {
    private func emptyConfig() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rig-speak-\(UUID()).toml")
        try Data().write(to: url)
        return url.path
    }

    @Test func writesTheClipAsAWAVOfItsExactDuration() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("rig-speak-\(UUID()).wav").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let config = try emptyConfig()
        #expect(CLI.appliance.main(["rig", "speak", "Raise your right hand.", "--rate", "200", "--out", out, "--config", config]) == 0)
        let wav = try #require(WAVFile.read(try Data(contentsOf: URL(fileURLWithPath: out))))
        #expect(wav.sampleRate == 22050 && wav.channels == 1)
        let clip = try SpeechSynthesizer.shared.synthesize("Raise your right hand.", rate: 200)
        #expect(wav.samples == clip.samples)
    }

    @Test func badRequestsExitTwo() throws {
        let config = try emptyConfig()
        #expect(CLI.appliance.main(["rig", "speak", "--config", config]) == 2)
        #expect(CLI.appliance.main(["rig", "speak", "Hi", "--rate", "fast", "--config", config]) == 2)
        #expect(CLI.appliance.main(["rig", "speak", "Hi", "--rate", "20", "--out", "/tmp/x.wav", "--config", config]) == 2)
        #expect(CLI.appliance.main(["rig", "speak", "Hi", "--voice", "xx-nowhere", "--out", "/tmp/x.wav", "--config", config]) == 2)
        #expect(CLI.appliance.main(["rig", "speak", "\u{1}\u{2}", "--out", "/tmp/x.wav", "--config", config]) == 2)
        // No such device: refused with a message, not a crash or a hang.
        #expect(CLI.appliance.main(["rig", "speak", "Hi", "--device", "rig_no_such_pcm", "--config", config]) == 2)
    }

    @Test func wavFilesRoundTrip() {
        let samples: [Int16] = [0, 1, -1, 32767, -32768, 1234]
        let wav = WAVFile.read(WAVFile.data(samples: samples, sampleRate: 48000))
        #expect(wav?.samples == samples && wav?.sampleRate == 48000 && wav?.channels == 1)
        #expect(WAVFile.read(Data("not a wav".utf8)) == nil)
    }
}
