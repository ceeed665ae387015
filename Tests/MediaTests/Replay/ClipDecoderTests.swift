import Foundation
import Synchronization
import Testing
@testable import Media

/// The replay decoder on its own thread: it decodes only as far as it is asked, its
/// pictures are the recorded ones in order with their times, and the sound comes
/// back mono.
@Suite(.serialized) struct ClipDecoderTests {
    final class Signals: Sendable { let count = Mutex(0) }

    private func record(_ folder: ScratchFolder, frames: Int) throws -> String {
        let recorder = try Recorder(folder: folder.path, name: "clip", video: VideoTrackFormat(format: .yuyv, width: 320, height: 240),
                                    audio: AudioTrackFormat(sampleRate: 48_000, channels: 1), origin: 0,
                                    settings: SyntheticMedia.unhurried)
        for k in 0..<(frames * 100 / 30 + 10) {
            recorder.append(RecorderAudioChunk(samples: SyntheticMedia.tone(frequency: 1000, amplitude: 0.5, rate: 48_000,
                                                                            start: k * 480, count: 480),
                                               timestamp: Double(k) * 0.01))
        }
        for i in 0..<frames { recorder.append(SyntheticMedia.yuyvFrame(i, timestamp: Double(i) / 30)) }
        return try recorder.finish().path
    }

    /// The luma plane of a packed I420 picture as MediaReader's frames are read.
    private func luma(_ picture: ReplayPicture) -> DecodedVideoFrame {
        var pixels: [UInt8] = []
        for row in 0..<picture.height {
            pixels += picture.bytes[(row * picture.bytesPerLine)..<(row * picture.bytesPerLine + picture.width)]
        }
        return DecodedVideoFrame(time: picture.time, width: picture.width, height: picture.height, layout: .luma,
                                 pixels: pixels)
    }

    @Test func decodesOnlyAsFarAsWantedThenTheRest() throws {
        let folder = ScratchFolder()
        let path = try record(folder, frames: 45)
        let signals = Signals()
        let decoder = ClipDecoder(path: path, sound: true) { signals.count.withLock { $0 += 1 } }
        defer { decoder.stop() }
        decoder.want(through: 0.25)
        // The thread holds the first picture past 0.25 s: frame 8 at 0.2667 s.
        #expect(waitUntil { decoder.holdingPictureAt != nil })
        #expect(abs((decoder.holdingPictureAt ?? 0) - 8.0 / 30) < 0.002)
        var delivery = decoder.take()
        #expect(delivery.pictures.map(\.index) == Array(0...7))
        #expect(delivery.pictures.allSatisfy { $0.time <= 0.25 })
        #expect(!delivery.ended && delivery.failure == nil)
        // The sound streams too: pieces up to the soundLead past what is wanted, no further.
        var pieces = delivery.sound
        #expect(!pieces.isEmpty && pieces.allSatisfy { $0.sampleRate == 48_000 })
        #expect(pieces.allSatisfy { $0.startTime <= 0.25 + ClipDecoder.soundLead + 1e-9 })
        let early = pieces.reduce(0) { $0 + $1.samples.count }
        #expect(early >= 48_000 * 7 / 10 && early <= 48_000 * 8 / 10, "\(early) samples decoded ahead")
        for picture in delivery.pictures {
            #expect(picture.width == 320 && picture.height == 240 && picture.bytes.count == 320 * 240 * 3 / 2)
            #expect(SyntheticMedia.frameIndex(of: luma(picture)) == picture.index, "picture \(picture.index) shows another frame")
            #expect(abs(picture.time - Double(picture.index) / 30) < 0.002)
        }
        decoder.want(through: 10)
        var rest: [ReplayPicture] = []
        var ended = false, soundEnded = false
        #expect(waitUntil {
            delivery = decoder.take()
            rest += delivery.pictures
            pieces += delivery.sound
            ended = ended || delivery.ended
            soundEnded = soundEnded || delivery.soundEnded
            return ended && soundEnded
        })
        #expect(rest.map(\.index) == Array(8..<45))
        // The pieces join without gap or overlap, and are the recorded tone, mono.
        for (before, after) in zip(pieces, pieces.dropFirst()) {
            #expect(abs(before.startTime + Double(before.samples.count) / 48_000 - after.startTime) < 1e-9)
        }
        let sound = pieces.flatMap(\.samples)
        #expect(sound.count > 48_000 * 14 / 10)
        let floats = sound.map { Float($0) / 32767 }
        #expect(abs(SyntheticMedia.amplitude(of: 1000, in: floats, rate: 48_000, range: 4800..<9600) - 0.5) < 0.05)
        #expect(signals.count.withLock { $0 } > 0)
        #expect(decoder.waitUntilStopped(seconds: 5))
    }

    @Test func aStoppedDecoderEndsWithoutDecodingTheRest() throws {
        let folder = ScratchFolder()
        let path = try record(folder, frames: 30)
        let decoder = ClipDecoder(path: path, sound: false) {}
        decoder.want(through: 0)
        #expect(waitUntil { decoder.holdingPictureAt != nil })
        decoder.stop()
        #expect(decoder.waitUntilStopped(seconds: 5))
        let delivery = decoder.take()
        #expect(delivery.pictures.map(\.index) == [0] && delivery.sound.isEmpty && !delivery.ended)
    }

    @Test func aMissingFileIsAFailureWithItsPath() {
        let decoder = ClipDecoder(path: "/nonexistent/clip.mp4", sound: false) {}
        #expect(decoder.waitUntilStopped(seconds: 5))
        let failure = decoder.take().failure
        #expect(failure?.description.contains("/nonexistent/clip.mp4") == true)
    }
}
