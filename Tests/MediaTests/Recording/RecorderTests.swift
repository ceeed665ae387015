import Foundation
import Testing
@testable import Media

/// Records synthetic camera frames and a tone, then reads the file back with rig's
/// MediaReader and with the real ffprobe.
@Suite(.serialized) struct RecorderTests {
    let origin = 1000.0

    /// Variable frame rate: every fifth interval is a missed frame (1/15 s).
    func frameTimes(_ count: Int) -> [Double] {
        var times: [Double] = []
        var t = origin + 0.004
        for i in 0..<count {
            times.append(t)
            t += i % 5 == 4 ? 2.0 / 30 : 1.0 / 30
        }
        return times
    }

    func feedTone(_ recorder: Recorder, seconds: Double, from start: Double, rate: Int = 48_000) {
        let chunk = rate / 100
        for k in 0..<Int(seconds * 100) {
            recorder.append(RecorderAudioChunk(
                samples: SyntheticMedia.tone(frequency: 1000, amplitude: 0.5, rate: rate, start: k * chunk, count: chunk),
                timestamp: start + Double(k) * 0.01))
        }
    }

    @Test func recordsH264AndAACOnTheCameraClockUnmirrored() throws {
        let folder = ScratchFolder()
        let recorder = try Recorder(folder: folder.path, name: "take-1",
                                    video: VideoTrackFormat(format: .yuyv, width: 320, height: 240),
                                    audio: AudioTrackFormat(sampleRate: 48_000, channels: 1), origin: origin, settings: SyntheticMedia.unhurried)
        let times = frameTimes(60)
        // Audio is captured from before the origin; what precedes it is left out.
        feedTone(recorder, seconds: 2.6, from: origin - 0.1)
        for (i, t) in times.enumerated() { recorder.append(SyntheticMedia.yuyvFrame(i, timestamp: t)) }
        let result = try recorder.finish(annotations: ["script": "Welcome"])

        #expect(result.videoFrames == 60)
        #expect(result.droppedFrames == 0 && result.rejectedFrames == 0)
        #expect(result.firstVideoTimestamp == times.first && result.lastVideoTimestamp == times.last)
        #expect(abs((result.firstAudioTimestamp ?? -1) - origin) < 0.001)
        #expect(folder.names() == ["take-1.json", "take-1.mp4"])
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("take-1.json"))))
        let annotations = (json as? [String: Any])?["annotations"] as? [String: String]
        #expect(annotations == ["script": "Welcome"])

        let reader = try MediaReader(path: result.path)
        #expect(reader.firstStream(.video)?.codecName == "h264")
        #expect(reader.firstStream(.audio)?.codecName == "aac")
        #expect(reader.firstStream(.audio)?.sampleRate == 48_000)
        let frames = try reader.decodeVideo()
        #expect(frames.count == 60)
        for (i, frame) in frames.enumerated() {
            // Timestamps are the camera's, relative to the origin (one frame is the bound).
            #expect(abs(frame.time - (times[i] - origin)) < 1.0 / 30, "frame \(i) at \(frame.time)")
            #expect(SyntheticMedia.frameIndex(of: frame) == i % 28, "frame \(i) shows the wrong bar")
            let marker = SyntheticMedia.meanLuma(frame, x: 24, y: 24, size: 32)
            let mirrored = SyntheticMedia.meanLuma(frame, x: 320 - 56, y: 24, size: 32)
            #expect(marker > 200 && mirrored < 60, "frame \(i): marker \(marker), mirror side \(mirrored)")
        }
        let maxError = zip(frames, times).map { abs($0.time - ($1 - origin)) }.max() ?? 1
        #expect(maxError < 0.0005, "timestamps off by up to \(maxError) s")

        let audio = try reader.decodeAudio()
        // The decoder keeps AAC's 1024 priming samples (at -21.3 ms); the tone,
        // captured from the origin on, must begin at time zero.
        let firstLoud = audio.samples.firstIndex { abs($0) > 0.05 } ?? 0
        let toneStart = audio.startTime + Double(firstLoud) / 48_000
        #expect(abs(toneStart) < 0.001, "the tone starts at \(toneStart) s")
        let level = SyntheticMedia.amplitude(of: 1000, in: audio.samples, rate: 48_000, range: 4800..<96_000)
        #expect(abs(level - 0.5) < 0.05, "tone level \(level)")

        try FFprobe.require()
        let probed = try FFprobe.streams(result.path)
        #expect(Set(probed.map { "\($0.codecType):\($0.codecName)" }) == ["video:h264", "audio:aac"])
        let probedTimes = try FFprobe.videoFrameTimes(result.path)
        #expect(probedTimes.count == 60)
        for (probedTime, t) in zip(probedTimes, times) { #expect(abs(probedTime - (t - origin)) < 1.0 / 30) }
        #expect(abs((reader.duration ?? 0) - result.duration) < 0.1, "reader \(reader.duration ?? 0) s, recorder \(result.duration) s")
        let duration = try FFprobe.formatDuration(result.path) ?? 0
        #expect(abs(duration - result.duration) < 0.1, "ffprobe \(duration) s, recorder \(result.duration) s")
    }

    @Test func takesXRGBAndNV12FramesUnmirrored() throws {
        for format in [RecordedPixelFormat.xrgb, .nv12] {
            let folder = ScratchFolder()
            let recorder = try Recorder(folder: folder.path, name: "take",
                                        video: VideoTrackFormat(format: format, width: 320, height: 240),
                                        audio: nil, origin: origin, settings: SyntheticMedia.unhurried)
            for i in 0..<10 {
                let yuyv = SyntheticMedia.yuyvFrame(i, timestamp: 0)
                let luma = (0..<(320 * 240)).map { yuyv.bytes.base.load(fromByteOffset: $0 * 2, as: UInt8.self) }
                let bytes: [UInt8] = format == .xrgb
                    ? luma.flatMap { [$0, $0, $0, 255] }
                    : luma + [UInt8](repeating: 128, count: 320 * 120)
                recorder.append(RecorderVideoFrame(format: format, width: 320, height: 240,
                                                   bytesPerLine: format == .xrgb ? 1280 : 320,
                                                   timestamp: origin + Double(i) / 30, bytes: RecordedBytes(bytes)))
            }
            let result = try recorder.finish()
            let frames = try MediaReader(path: result.path).decodeVideo()
            #expect(frames.count == 10, "\(format)")
            guard let last = frames.last else { continue }
            #expect(SyntheticMedia.meanLuma(last, x: 24, y: 24, size: 32) > 190, "\(format) marker")
            #expect(SyntheticMedia.meanLuma(last, x: 264, y: 24, size: 32) < 70, "\(format) mirror side")
            #expect(SyntheticMedia.frameIndex(of: last) == 9, "\(format) bar")
        }
    }

    @Test func resamplesStereoCaptureTo48kHzOnTheSameClock() throws {
        let folder = ScratchFolder()
        let recorder = try Recorder(folder: folder.path, name: "stereo",
                                    video: VideoTrackFormat(format: .yuyv, width: 320, height: 240),
                                    audio: AudioTrackFormat(sampleRate: 44_100, channels: 2), origin: origin, settings: SyntheticMedia.unhurried)
        // Left: 1 kHz tone from 0.5 s; right: silence. 441-sample chunks (10 ms).
        for k in 0..<150 {
            let left = k >= 50 ? SyntheticMedia.tone(frequency: 1000, amplitude: 0.5, rate: 44_100, start: k * 441, count: 441)
                               : [Int16](repeating: 0, count: 441)
            recorder.append(RecorderAudioChunk(samples: left.flatMap { [$0, 0] }, timestamp: origin + Double(k) * 0.01))
        }
        // A frame from before the origin is left out and counted.
        recorder.append(SyntheticMedia.yuyvFrame(0, timestamp: origin - 0.5))
        for i in 0..<45 { recorder.append(SyntheticMedia.yuyvFrame(i, timestamp: origin + Double(i) / 30)) }
        let result = try recorder.finish()
        #expect(result.rejectedFrames == 1 && result.videoFrames == 45)
        let reader = try MediaReader(path: result.path)
        #expect(reader.firstStream(.audio)?.sampleRate == 48_000 && reader.firstStream(.audio)?.channels == 2)
        let audio = try reader.decodeAudio()
        let left = stride(from: 0, to: audio.samples.count, by: 2).map { audio.samples[$0] }
        let right = stride(from: 1, to: audio.samples.count, by: 2).map { audio.samples[$0] }
        let onset = audio.startTime + Double(left.firstIndex { abs($0) > 0.05 } ?? 0) / 48_000
        #expect(abs(onset - 0.5) < 0.002, "tone starts at \(onset) s, captured at 0.5 s")
        let base = Int(-audio.startTime * 48_000)
        let level = SyntheticMedia.amplitude(of: 1000, in: left, rate: 48_000, range: (base + 28_800)..<(base + 67_200))
        #expect(abs(level - 0.5) < 0.05, "left level \(level)")
        #expect((right.map { abs($0) }.max() ?? 1) < 0.02, "the right channel is silent")
    }

    @Test func finishingWithNothingRecordedDoesNotCrash() throws {
        let folder = ScratchFolder()
        let recorder = try Recorder(folder: folder.path, name: "empty",
                                    video: VideoTrackFormat(format: .yuyv, width: 320, height: 240), audio: nil, origin: origin, settings: SyntheticMedia.unhurried)
        let result = try recorder.finish()
        #expect(result.videoFrames == 0 && result.duration == 0)
    }

    @Test func fillsACaptureGapWithSilenceSoSoundStaysInSync() throws {
        let folder = ScratchFolder()
        let recorder = try Recorder(folder: folder.path, name: "gap",
                                    video: VideoTrackFormat(format: .yuyv, width: 320, height: 240),
                                    audio: AudioTrackFormat(sampleRate: 48_000, channels: 1), origin: origin, settings: SyntheticMedia.unhurried)
        // 0.5 s of tone, 0.5 s missing, 0.5 s of tone whose capture time says where it goes.
        for k in 0..<100 where k < 50 || k >= 100 - 50 {
            let chunk = SyntheticMedia.tone(frequency: 1000, amplitude: 0.5, rate: 48_000, start: k * 480, count: 480)
            recorder.append(RecorderAudioChunk(samples: k < 50 ? chunk : chunk, timestamp: origin + Double(k) * 0.01 + (k >= 50 ? 0.5 : 0)))
        }
        for i in 0..<45 { recorder.append(SyntheticMedia.yuyvFrame(i, timestamp: origin + Double(i) / 30)) }
        let result = try recorder.finish()
        #expect(result.audioGapsFilled == 1)
        let audio = try MediaReader(path: result.path).decodeAudio()
        let rate = 48_000
        let during = SyntheticMedia.amplitude(of: 1000, in: audio.samples, rate: rate, range: (rate * 6 / 10)..<(rate * 9 / 10))
        let after = SyntheticMedia.amplitude(of: 1000, in: audio.samples, rate: rate, range: (rate * 11 / 10)..<(rate * 14 / 10))
        #expect(during < 0.01, "gap level \(during)")
        #expect(after > 0.4, "tone after the gap \(after)")
        #expect(audio.frameCount >= rate * 3 / 2 - 1024, "audio covers \(audio.frameCount) samples")
    }
}
