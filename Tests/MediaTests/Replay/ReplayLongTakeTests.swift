import Foundation
import Testing
@testable import Media

/// A long take's replay starts at once: the sound comes in pieces, decoded a bounded
/// way past the pictures wanted, instead of the whole soundtrack before the first
/// sample. Here a 40 s take (pictures at 2 fps keep its encoding short).
@Suite(.serialized) struct ReplayLongTakeTests {
    @Test func theFirstSoundComesBeforeTheRestIsDecodedAndOnlyALittleIsHeld() throws {
        let folder = ScratchFolder()
        let seconds = 40
        let recorder = try Recorder(folder: folder.path, name: "long", video: VideoTrackFormat(format: .yuyv, width: 320, height: 240),
                                    audio: AudioTrackFormat(sampleRate: 48_000, channels: 1), origin: 0,
                                    settings: SyntheticMedia.unhurried)
        for k in 0..<(seconds * 100) {
            recorder.append(RecorderAudioChunk(samples: SyntheticMedia.tone(frequency: 440, amplitude: 0.3, rate: 48_000,
                                                                            start: k * 480, count: 480),
                                               timestamp: Double(k) * 0.01))
        }
        for i in 0..<(seconds * 2) { recorder.append(SyntheticMedia.yuyvFrame(i, timestamp: Double(i) / 2)) }
        let path = try recorder.finish().path

        // The old way, for the figure: the whole soundtrack decoded before the first sample.
        let wholeStart = Date()
        let whole = try MediaReader(path: path).decodeAudio()
        let wholeSeconds = Date().timeIntervalSince(wholeStart)

        let opened = Date()
        let decoder = ClipDecoder(path: path, sound: true, soundRate: 44_100) {}
        defer { decoder.stop() }
        decoder.want(through: 0.5)
        var pieces: [ReplaySound] = []
        var firstSound: Double?
        let deadline = Date().addingTimeInterval(20)
        while !decoder.isIdle || pieces.isEmpty, Date() < deadline {
            let delivery = decoder.take()
            if firstSound == nil, !delivery.sound.isEmpty { firstSound = Date().timeIntervalSince(opened) }
            pieces += delivery.sound
            if delivery.sound.isEmpty { usleep(500) }
        }
        pieces += decoder.take().sound
        let first = try #require(firstSound)
        print("long take (\(seconds) s): first sound piece after \(String(format: "%.1f", first * 1000)) ms; "
              + "the whole soundtrack took \(String(format: "%.1f", wholeSeconds * 1000)) ms to decode")
        let held = pieces.reduce(0) { $0 + $1.samples.count }
        // Resampled to the output's rate on the decoder's thread, to 1.0 s and no further.
        #expect(pieces.allSatisfy { $0.sampleRate == 44_100 })
        #expect(held <= 44_100 * 105 / 100 && held >= 44_100 * 95 / 100, "\(held) samples held")
        #expect(whole.frameCount > 48_000 * (seconds - 1))
        #expect(first < wholeSeconds, "the first piece comes before a whole decode would have ended")
    }
}
