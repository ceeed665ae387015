import Foundation
import Testing
@testable import Media

/// The derived exports of seed 004, checked against the original they came from.
@Suite(.serialized) struct ExportTests {
    let origin = 2000.0

    /// A recording of `frames` synthetic frames (first at 4 ms) and a 1 kHz room tone.
    func record(in folder: ScratchFolder, frames: Int, seconds: Double) throws -> RecordingResult {
        let recorder = try Recorder(folder: folder.path, name: "original",
                                    video: VideoTrackFormat(format: .yuyv, width: 320, height: 240),
                                    audio: AudioTrackFormat(sampleRate: 48_000, channels: 1), origin: origin, settings: SyntheticMedia.unhurried)
        for k in 0..<Int(seconds * 100) {
            recorder.append(RecorderAudioChunk(
                samples: SyntheticMedia.tone(frequency: 1000, amplitude: 0.5, rate: 48_000, start: k * 480, count: 480),
                timestamp: origin + Double(k) * 0.01))
        }
        for i in 0..<frames { recorder.append(SyntheticMedia.yuyvFrame(i, timestamp: origin + 0.004 + Double(i) / 30)) }
        return try recorder.finish()
    }

    func meanDifference(_ a: DecodedVideoFrame, _ b: DecodedVideoFrame, x: Range<Int>, y: Range<Int>) -> Double {
        var sum = 0
        for row in y { for column in x { sum += abs(Int(a.pixels[row * a.width + column]) - Int(b.pixels[row * b.width + column])) } }
        return Double(sum) / Double(x.count * y.count)
    }

    func fileChecksum(_ path: String) throws -> UInt64 {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { MediaReader.fnv1a($0) }
    }

    @Test func cueExportDrawsOnExactlyTheFramesInsideTheInterval() throws {
        let folder = ScratchFolder()
        let original = try record(in: folder, frames: 60, seconds: 2.1)
        let before = try fileChecksum(original.path)
        let white = [UInt8](repeating: 255, count: 48 * 48 * 4)
        let badge = try OverlayPicture(width: 48, height: 48, rgba: white, x: 200, y: 40)
        let cue = CueInterval(start: 0.8, end: 1.2)
        let result = try CueExport.export(from: original.path, to: folder.file("cue.mp4"), cue: cue, badge: badge)
        #expect(result.path == folder.file("cue.mp4"))
        #expect(!folder.names().contains { $0.hasSuffix(".partial") })

        let source = try MediaReader(path: original.path).decodeVideo()
        let exported = try MediaReader(path: result.path).decodeVideo()
        #expect(exported.count == source.count && source.count == 60)
        let inside = source.filter { cue.contains($0.time) }.count
        #expect(inside == 12 && result.badgedFrames == 12)
        for (i, (a, b)) in zip(source, exported).enumerated() {
            #expect(abs(a.time - b.time) < 1e-6, "frame \(i) moved: \(a.time) -> \(b.time)")
            let badgeArea = meanDifference(a, b, x: 200..<248, y: 40..<88)
            let rest = meanDifference(a, b, x: 0..<320, y: 120..<240)
            if cue.contains(a.time) {
                #expect(badgeArea > 150, "frame \(i) at \(a.time): badge area changed by only \(badgeArea)")
                #expect(b.pixels[64 * 320 + 224] > 225, "frame \(i): badge not white")
            } else {
                #expect(badgeArea < 3, "frame \(i) at \(a.time) outside the cue changed by \(badgeArea)")
            }
            #expect(rest < 3, "frame \(i): the rest of the picture changed by \(rest)")
        }
        // The microphone's packets are the original bytes.
        let sourceAudio = try MediaReader(path: original.path).packets(of: .audio)
        let exportedAudio = try MediaReader(path: result.path).packets(of: .audio)
        #expect(sourceAudio.count > 90 && result.copiedPackets == sourceAudio.count)
        #expect(sourceAudio == exportedAudio)
        #expect(try fileChecksum(original.path) == before, "the original changed")
        try FFprobe.require()
        #expect(Set(try FFprobe.streams(result.path).map(\.codecName)) == ["h264", "aac"])
    }

    @Test func narratedExportLowersTheRoomTo12PercentUnderTheVoice() throws {
        let folder = ScratchFolder()
        let original = try record(in: folder, frames: 90, seconds: 3.1)
        let before = try fileChecksum(original.path)
        let voiceRate = 22_050
        let voice = (0..<voiceRate).map { Float(0.3 * sin(2 * .pi * 440 * Double($0) / Double(voiceRate))) }
        let clip = NarrationClip(samples: voice, sampleRate: voiceRate, start: 1.0)
        let result = try NarratedExport.export(from: original.path, to: folder.file("narrated.mp4"), narration: [clip])

        let room = try MediaReader(path: original.path).decodeAudio()
        let mixed = try MediaReader(path: result.path).decodeAudio()
        #expect(mixed.sampleRate == 48_000)
        #expect(abs(mixed.startTime - room.startTime) < 0.001, "sound moved from \(room.startTime) to \(mixed.startTime) s")
        func toneStart(_ audio: DecodedAudio) -> Double {
            audio.startTime + Double(audio.samples.firstIndex { abs($0) > 0.05 } ?? 0) / 48_000
        }
        #expect(abs(toneStart(mixed) - toneStart(room)) < 0.001, "room sound moved")
        func window(_ from: Double, _ to: Double, in audio: DecodedAudio) -> Range<Int> {
            Int((from - audio.startTime) * 48_000)..<Int((to - audio.startTime) * 48_000)
        }
        func decibels(_ from: Double, _ to: Double) -> Double {
            let a = SyntheticMedia.amplitude(of: 1000, in: mixed.samples, rate: 48_000, range: window(from, to, in: mixed))
            let b = SyntheticMedia.amplitude(of: 1000, in: room.samples, rate: 48_000, range: window(from, to, in: room))
            return 20 * log10(a / b)
        }
        let target = 20 * log10(0.12)
        let inside = decibels(1.1, 1.9)
        #expect(abs(inside - target) < 1, "room under the voice at \(inside) dB, want \(target) dB")
        for (from, to) in [(0.2, 0.9), (2.1, 2.9)] {
            let outside = decibels(from, to)
            #expect(abs(outside) < 0.5, "room at \(from)-\(to) s changed by \(outside) dB")
        }
        let voiceInside = SyntheticMedia.amplitude(of: 440, in: mixed.samples, rate: 48_000, range: window(1.1, 1.9, in: mixed))
        let voiceOutside = SyntheticMedia.amplitude(of: 440, in: mixed.samples, rate: 48_000, range: window(2.2, 2.9, in: mixed))
        #expect(abs(20 * log10(voiceInside / 0.3)) < 1, "voice at \(voiceInside)")
        #expect(voiceOutside < 0.01)

        let sourceVideo = try MediaReader(path: original.path).packets(of: .video)
        #expect(try MediaReader(path: result.path).packets(of: .video) == sourceVideo, "video was not copied as is")
        #expect(result.copiedPackets == 90)
        #expect(try fileChecksum(original.path) == before, "the original changed")
        try FFprobe.require()
        #expect(Set(try FFprobe.streams(result.path).map(\.codecName)) == ["h264", "aac"])
    }

    @Test func roomGainFadesOutsideTheNarration() {
        let mix = NarrationMix(clips: [NarrationClip(samples: [Float](repeating: 0, count: 1000), sampleRate: 1000, start: 2)],
                               roomLevel: 0.12, fade: 0.05)
        #expect(mix.roomGain(at: 1.9) == 1)
        #expect(abs(mix.roomGain(at: 1.975) - 0.56) < 1e-4)
        #expect(mix.roomGain(at: 2.0) == 0.12 && mix.roomGain(at: 2.5) == 0.12 && mix.roomGain(at: 3.0) == 0.12)
        #expect(abs(mix.roomGain(at: 3.025) - 0.56) < 1e-4)
        #expect(mix.roomGain(at: 3.06) == 1)
    }

    @Test func failedExportLeavesNothingBehind() throws {
        let folder = ScratchFolder()
        let missing = folder.file("missing.mp4")
        #expect(throws: MediaError.self) {
            _ = try CueExport.export(from: missing, to: folder.file("cue.mp4"), cue: CueInterval(start: 0, end: 1),
                                     badge: OverlayPicture(width: 2, height: 2, rgba: [UInt8](repeating: 255, count: 16), x: 0, y: 0))
        }
        #expect(folder.names() == [])
    }
}
