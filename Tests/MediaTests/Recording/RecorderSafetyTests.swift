import Foundation
import Testing
@testable import Media

/// What the recorder does when things go wrong: cancelled takes, stalled streams, a
/// slow encoder, a full disk, a crash mid-write.
@Suite(.serialized) struct RecorderSafetyTests {
    let origin = 500.0
    let small = VideoTrackFormat(format: .yuyv, width: 320, height: 240)

    @Test func cancelRemovesTheIncompleteFile() throws {
        let folder = ScratchFolder()
        let recorder = try Recorder(folder: folder.path, name: "attempt", video: small, audio: nil, origin: origin, settings: SyntheticMedia.unhurried)
        for i in 0..<20 { recorder.append(SyntheticMedia.yuyvFrame(i, timestamp: origin + Double(i) / 30)) }
        #expect(folder.names() == [".attempt.mp4.partial"])
        recorder.cancel()
        #expect(folder.names() == [])
        #expect(throws: MediaError.notRecording) { try recorder.finish() }
    }

    @Test func reportsAStreamThatStops() throws {
        let folder = ScratchFolder()
        let recorder = try Recorder(folder: folder.path, name: "stall", video: small,
                                    audio: AudioTrackFormat(sampleRate: 48_000, channels: 1), origin: origin, settings: SyntheticMedia.unhurried)
        #expect(recorder.takeEvents(now: origin + 0.2).isEmpty)
        for i in 0..<30 { recorder.append(SyntheticMedia.yuyvFrame(i, timestamp: origin + Double(i) / 30)) }
        for k in 0..<20 { recorder.append(RecorderAudioChunk(samples: [Int16](repeating: 0, count: 480), timestamp: origin + Double(k) * 0.01)) }
        // Audio ended at 0.2 s, video goes on to 0.97 s.
        let events = recorder.takeEvents(now: origin + 1.0)
        #expect(events.count == 1)
        if case let .streamStalled(.audio, last, silent)? = events.first {
            #expect(abs((last ?? 0) - (origin + 0.2)) < 1e-9 && abs(silent - 0.8) < 1e-9)
        } else {
            Issue.record("audio stall not reported: \(events)")
        }
        #expect(recorder.takeEvents(now: origin + 1.1).isEmpty, "a stall is reported once")
        let later = recorder.takeEvents(now: origin + 1.6)
        #expect(later.count == 1)
        if case .streamStalled(.video, _, _)? = later.first {} else { Issue.record("video stall not reported: \(later)") }
        _ = try recorder.finish()
    }

    @Test func aStoppedMicrophoneDoesNotHoldTheVideoBack() throws {
        let folder = ScratchFolder()
        let recorder = try Recorder(folder: folder.path, name: "mute", video: small,
                                    audio: AudioTrackFormat(sampleRate: 48_000, channels: 1), origin: origin, settings: SyntheticMedia.unhurried)
        for k in 0..<20 { recorder.append(RecorderAudioChunk(samples: [Int16](repeating: 0, count: 480), timestamp: origin + Double(k) * 0.01)) }
        for i in 0..<130 { recorder.append(SyntheticMedia.yuyvFrame(i, timestamp: origin + Double(i) / 30)) }
        // Audio ended at 0.2 s; the video's fragments must still reach the disk.
        let partial = folder.file(".mute.mp4.partial"), copy = folder.file("probe.mp4")
        var covered = 0.0
        #expect(waitUntil {
            guard let bytes = try? Data(contentsOf: URL(fileURLWithPath: partial)),
                  (try? bytes.write(to: URL(fileURLWithPath: copy))) != nil else { return false }
            covered = (try? MediaReader(path: copy).decodeVideo())?.last?.time ?? 0
            return covered >= 129.0 / 30 - 2
        }, "video on disk reaches only \(covered) s")
        recorder.cancel()
    }

    @Test func reportsWriterPressureAndDropsRatherThanBlock() throws {
        let folder = ScratchFolder()
        var settings = RecorderSettings()
        settings.preset = "veryslow"
        settings.queueLimit = 4
        let recorder = try Recorder(folder: folder.path, name: "slow",
                                    video: VideoTrackFormat(format: .yuyv, width: 1280, height: 720), audio: nil,
                                    origin: origin, settings: settings)
        let frame = SyntheticMedia.yuyvFrame(0, timestamp: 0, width: 1280, height: 720)
        let started = Date()
        for i in 0..<40 {
            var next = frame
            next.timestamp = origin + Double(i) / 30
            recorder.append(next)
        }
        let appendTime = Date().timeIntervalSince(started)
        let events = recorder.takeEvents(now: origin + 1.3)
        let pressure = events.compactMap { event -> WriterPressure? in
            if case let .writerPressure(p) = event { return p } else { return nil }
        }
        #expect(pressure.count == 1, "pressure reports are coalesced: \(events)")
        #expect((pressure.last?.droppedFrames ?? 0) > 0)
        #expect(pressure.last?.queueLimit == 4)
        #expect(appendTime < 0.5, "40 appends took \(appendTime) s")
        let result = try recorder.finish()
        #expect(result.droppedFrames == pressure.last?.droppedFrames)
        #expect(result.videoFrames + result.droppedFrames == 40)
    }

    @Test func refusesToStartWithoutTheMinimumFreeSpace() throws {
        let folder = ScratchFolder()
        var settings = RecorderSettings()
        let available = FreeSpace.available(at: folder.path) ?? 0
        settings.minimumFreeBytes = available + 1 << 40
        do {
            _ = try Recorder(folder: folder.path, name: "big", video: small, audio: nil, origin: origin, settings: settings)
            Issue.record("started with too little space")
        } catch {
            guard case .notEnoughSpace = error else { Issue.record("\(error)"); return }
            #expect(error.description.contains("must stay free"))
        }
        #expect(folder.names() == [])
    }

    @Test func stopsWithAMessageAndAPlayableFileWhenTheDiskFills() throws {
        let folder = ScratchFolder()
        let mounted = TmpfsMount(at: folder.path, megabytes: 6)
        var settings = RecorderSettings()
        settings.quality = .constantQuality(0)
        settings.preset = "ultrafast"
        settings.queueLimit = 400
        settings.minimumFreeBytes = 3 * 1_048_576
        // Without root, a probe counting what the file takes from a pretend 6 MB disk.
        let files = [folder.file(".full.mp4.partial"), folder.file("full.mp4")]
        let pretend: @Sendable (String) -> UInt64? = { _ in
            let used = files.reduce(UInt64(0)) { sum, file in
                var info = stat()
                return sum + (stat(file, &info) == 0 ? UInt64(info.st_size) : 0)
            }
            return 6 * 1_048_576 - min(used, 6 * 1_048_576)
        }
        let real: @Sendable (String) -> UInt64? = { FreeSpace.available(at: $0) }
        let probe = mounted.active ? real : pretend
        let recorder = try Recorder(folder: folder.path, name: "full", video: small, audio: nil, origin: origin,
                                    settings: settings, freeSpace: probe)
        var generator = SystemRandomNumberGenerator()
        for i in 0..<120 {
            recorder.append(SyntheticMedia.noiseFrame(timestamp: origin + Double(i) / 30, generator: &generator))
        }
        var events: [RecorderEvent] = []
        #expect(waitUntil { events += recorder.takeEvents(now: origin); return events.contains { if case .stopped = $0 { true } else { false } } })
        let stop = events.compactMap { event -> RecorderStop? in if case let .stopped(s) = event { return s } else { return nil } }.first
        guard case let .diskFull(available, minimum)? = stop else { Issue.record("no disk-full stop: \(events)"); return }
        #expect(available < minimum && minimum == settings.minimumFreeBytes)
        #expect(stop?.description.contains("must stay free") == true)
        let result = try recorder.finish()
        #expect(result.stopMessage == stop?.description)
        #expect(result.videoFrames > 5 && result.videoFrames < 120)
        let decoded = try MediaReader(path: result.path).decodeVideo()
        #expect(decoded.count == result.videoFrames)
        // What the flush and the trailer wrote after the stop is small against the minimum.
        let left = probe(folder.path) ?? 0
        #expect(left > 2 * 1_048_576, "only \(left) bytes left: the disk was filled")
    }

    @Test func aFileCutOffMidWriteDecodesToItsLastFragment() throws {
        let folder = ScratchFolder()
        let recorder = try Recorder(folder: folder.path, name: "crash", video: small,
                                    audio: AudioTrackFormat(sampleRate: 48_000, channels: 1), origin: origin, settings: SyntheticMedia.unhurried)
        // 130 frames: x264's lookahead holds back the last few, so four keyframes'
        // fragments (0, 1, 2, 3 s) are complete while the encoder still runs.
        for i in 0..<130 {
            recorder.append(SyntheticMedia.yuyvFrame(i, timestamp: origin + Double(i) / 30))
            if i % 3 == 0 {
                for k in 0..<10 {
                    let start = (i / 3) * 4800 + k * 480
                    recorder.append(RecorderAudioChunk(samples: SyntheticMedia.tone(frequency: 1000, amplitude: 0.5, rate: 48_000,
                                                                                     start: start, count: 480),
                                                       timestamp: origin + Double(start) / 48_000))
                }
            }
        }
        // While the recorder runs (no finish), what is on disk covers all but the last
        // second: the fragments are cut every half second and written as they are cut.
        let partial = folder.file(".crash.mp4.partial")
        let lastFrame = Double(129) / 30
        var bytes = Data()
        var covered = 0.0
        #expect(waitUntil {
            bytes = (try? Data(contentsOf: URL(fileURLWithPath: partial))) ?? Data()
            let copy = folder.file("probe.mp4")
            guard MP4Boxes.count("moof", in: bytes) > 0, (try? bytes.write(to: URL(fileURLWithPath: copy))) != nil else { return false }
            covered = (try? MediaReader(path: copy).decodeVideo())?.last?.time ?? 0
            return covered >= lastFrame - 1.0
        }, "the file on disk reaches \(covered) s of \(lastFrame) s")
        unlink(folder.file("probe.mp4"))
        // The process "dies" now: the copy is cut inside its last box.
        #expect(Recorder.incompleteFiles(in: folder.path) == [partial])
        let cut = bytes.prefix(bytes.count - 100)
        let copy = folder.file("cut.mp4")
        try cut.write(to: URL(fileURLWithPath: copy))
        recorder.cancel()

        let reader = try MediaReader(path: copy)
        let frames = try reader.decodeVideo()
        #expect(frames.count >= 60, "only \(frames.count) frames survived")
        for (i, frame) in frames.enumerated() {
            #expect(abs(frame.time - Double(i) / 30) < 0.001)
            #expect(SyntheticMedia.frameIndex(of: frame) == i % 28)
        }
        let audio = try reader.decodeAudio()
        #expect(audio.frameCount > 48_000, "audio survived: \(audio.frameCount) samples")
        try FFprobe.require()
        let probed = try FFprobe.streams(copy)
        #expect(Set(probed.map(\.codecName)) == ["h264", "aac"])
        #expect(try FFprobe.videoFrameTimes(copy).count == frames.count)
    }
}

/// Top-level MP4 boxes of a byte buffer.
enum MP4Boxes {
    static func count(_ type: String, in data: Data) -> Int {
        var offset = 0, found = 0
        let bytes = [UInt8](data)
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self) == type, offset + size <= bytes.count { found += 1 }
            guard size >= 8 else { break }
            offset += size
        }
        return found
    }
}

/// A small tmpfs over a folder while the value lives (root only; `active` says).
final class TmpfsMount {
    let path: String
    let active: Bool

    init(at path: String, megabytes: Int) {
        self.path = path
        active = getuid() == 0 && Glibc.mount("tmpfs", path, "tmpfs", 0, "size=\(megabytes)m") == 0
    }

    deinit { if active { umount2(path, Int32(MNT_DETACH)) } }
}
