import Foundation
import Media
import Render
import Testing
@testable import Kiosk
@testable import Stage

/// Audio/video sync of a replay, measured headless on the one clock. A clip is recorded
/// with a flash in the picture (frames 30 to 32, from 1.000 s) and a click in the sound
/// (a 20 ms burst from sample 48 000, 1.000 s), then replayed through the same path as
/// on the rig: the real decoder thread (pictures and sound pieces), the sound feed and
/// mixer, the stage's replay clock, picture queue and compositor at 60 Hz vblanks; the
/// output device is modelled (`ModelledSoundOutput`). The offset is the click's DAC time
/// minus the presentation time of the first frame that shows the flash (positive: the
/// sound is late).
///
/// The bound is ±45 ms: ITU-R BT.1359's threshold of detectability for sound ahead of
/// the picture is 45 ms (125 ms for sound behind), and EBU R37 allows a chain +40/−60 ms.
/// The tighter figure is used both ways, since the replay is only one link of a chain.
/// Without the clock following the sound, the offset would be the output's latency.
@Suite(.serialized) struct ReplaySyncTests {
    static let flash = 30, frames = 66, click = 48_000

    static func record(in folder: String) throws -> String {
        var settings = RecorderSettings()
        settings.preset = "ultrafast"
        settings.queueLimit = 10_000
        let recorder = try Recorder(folder: folder, name: "sync", video: VideoTrackFormat(format: .yuyv, width: 320, height: 240),
                                    audio: AudioTrackFormat(sampleRate: 48_000, channels: 1), origin: 0, settings: settings)
        for k in 0..<(frames * 100 / 30 + 10) {
            let samples = (0..<480).map { index -> Int16 in
                let sample = k * 480 + index
                guard sample >= click, sample < click + 960 else { return 0 }
                return Int16(16_000 * sin(Double(sample - click) * 2 * .pi * 1000 / 48_000))
            }
            recorder.append(RecorderAudioChunk(samples: samples, timestamp: Double(k) * 0.01))
        }
        for index in 0..<frames {
            let luma: UInt8 = (flash..<flash + 3).contains(index) ? 220 : 40
            var bytes = [UInt8](repeating: 128, count: 320 * 240 * 2)
            for pixel in 0..<(320 * 240) { bytes[pixel * 2] = luma }
            recorder.append(RecorderVideoFrame(format: .yuyv, width: 320, height: 240, bytesPerLine: 640,
                                               timestamp: Double(index) / 30, bytes: RecordedBytes(bytes)))
        }
        return try recorder.finish(annotations: ["kind": "prompter"]).path
    }

    /// Replays `path` from the top for 2 s of vblanks; the offset in seconds, and the
    /// clock's shift to follow the sound.
    /// With `stall`, the decoder's sound from clip time `from` reaches the feed only at
    /// `until` seconds after the start (a decoder that fell behind): the stream runs dry
    /// and slips, and the clock waits as long.
    static func measure(_ path: String, latency: Double, followSound: Bool = true,
                        stall: (from: Double, until: Double)? = nil) throws -> (offset: Double, shift: Double?) {
        var settings = RigStage.Settings(outerSize: PixelSize(width: 320, height: 180))
        settings.cameraEnabled = false
        let start = 100.0
        let replay = ManualClockStage(settings: settings, innerSize: PixelSize(width: 320, height: 180), fonts: try FontLibrary(),
                                 start: start)
        let stage = replay.stage
        stage.start()
        let clip = ClipSummary(id: "sync", kind: "prompter", title: "Sync", duration: Double(frames) / 30,
                               recordedAt: Date())
        // The kiosk's parts: its store lists the clip, its decoder is the real thread on
        // the clip's file, its output the modelled one (the stage's own feed drives it).
        let output = ModelledSoundOutput(latency: latency, at: start)
        let sound = ModelledSoundPort(output, followSound: followSound)
        let decoding = ThreadDecoding(path: path)
        stage.clips.store = ListedClips([clip])
        stage.clips.decoder = decoding
        stage.clips.sound = sound
        stage.console.show(.clips)
        #expect(stage.clips.open(clip) == nil)
        stage.console.activate("clips:full")
        let canvas = try Canvas(size: replay.innerSize)
        var shownAt: Double?
        var time = start
        var held: [ReplaySound] = []
        for vblank in 0..<120 {
            time = start + Double(vblank) / 60
            replay.advance(to: time)
            // The decoder thread catches up with what was wanted (as it does ahead of time
            // on the rig): it waits with nothing due, or has handed everything.
            let deadline = Date().addingTimeInterval(10)
            while decoding.decoder?.isIdle == false && Date() < deadline {
                let delivery = decoding.decoder?.take() ?? ClipDecoder.Delivery()
                if delivery.pictures.isEmpty && delivery.sound.isEmpty { usleep(500) }
                hand(delivery)
            }
            hand(decoding.decoder?.take() ?? ClipDecoder.Delivery())
            sound.advance(to: time)
            replay.frame(.inner, at: time, into: canvas)
            let centre = canvas.pixels[canvas.height / 2 * canvas.width + canvas.width / 2]
            if shownAt == nil, (centre >> 8) & 0xff > 128 { shownAt = time }
        }
        /// What the decoder handed over, to the stage as the kiosk's mailbox would; with a
        /// stall, the sound from `stall.from` is held back until `stall.until`.
        func hand(_ delivery: ClipDecoder.Delivery) {
            held += delivery.sound
            let stalled = stall.map { time < start + $0.until } ?? false
            var sound: [ReplaySound] = []
            while let piece = held.first, !(stalled && piece.startTime >= stall?.from ?? .infinity) {
                sound.append(piece)
                held.removeFirst()
            }
            let passed = ClipDecoder.Delivery(pictures: delivery.pictures, sound: sound, ended: delivery.ended,
                                              soundEnded: delivery.soundEnded && held.isEmpty, failure: delivery.failure)
            stage.handle(.replayDelivery(id: "sync", passed))
        }
        decoding.decoder?.stop()
        let shift = stage.clips.replay?.soundShift
        let heard = try #require(output.firstLoud(threshold: 0.25))
        let shown = try #require(shownAt)
        return (heard - shown, shift)
    }

    /// Latencies off the 60 Hz grid (a prefilled stream's 100 ms, a running one's up to
    /// 250 ms, plus a few ms), so the picture's vblank rounding shows in the figure.
    @Test(arguments: [0.107, 0.243]) func theFlashAndTheClickMeetWithin45ms(latency: Double) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-sync-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.record(in: folder.path)
        let (offset, shift) = try Self.measure(path, latency: latency)
        print("replay sync, output latency \(Int(latency * 1000)) ms: sound \(String(format: "%+.1f", offset * 1000)) ms "
              + "against the picture; the clock followed the sound by \(String(format: "%.1f", (shift ?? 0) * 1000)) ms")
        #expect(abs(offset) <= 0.045, "offset \(offset * 1000) ms")
        #expect(abs((shift ?? 0) - latency) < 0.011, "the clock moved by the output's latency: \(String(describing: shift))")
        // The control: with the clock left alone, the sound is late by the latency.
        let (unfollowed, _) = try Self.measure(path, latency: latency, followSound: false)
        print("  without following the sound: \(String(format: "%+.1f", unfollowed * 1000)) ms")
        #expect(unfollowed > latency - 0.02 && unfollowed > 0.045, "unfollowed \(unfollowed * 1000) ms")
    }

    /// The decoder falls 0.3 s behind mid-clip (the sound from 0.6 s reaches the output
    /// late): the stream runs dry, goes on without skipping a sample, and the picture
    /// waits as long, so the click and the flash still meet.
    @Test func aDecoderThatFellBehindSlipsSoundAndPictureTogether() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-sync-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.record(in: folder.path)
        let (offset, shift) = try Self.measure(path, latency: 0.107, stall: (from: 0.6, until: 0.107 + 0.9))
        print("replay sync with a 0.3 s decoder stall: sound \(String(format: "%+.1f", offset * 1000)) ms against the "
              + "picture; the clock followed the sound by \(String(format: "%.1f", (shift ?? 0) * 1000)) ms")
        #expect(abs(offset) <= 0.045, "offset \(offset * 1000) ms")
        #expect((shift ?? 0) > 0.107 + 0.2, "the clock waited for the slip too: \(String(describing: shift))")
    }
}

/// The clips a test's stage lists: these, and nothing to delete or export.
final class ListedClips: ClipStorePort {
    let clips: [ClipSummary]
    init(_ clips: [ClipSummary]) { self.clips = clips }
    func listing(exporting: String?, currentGame: String?) -> ClipsInput { ClipsInput(clips: clips) }
    var listJSON: JSONValue { [] }
    var exportFolder: String { "" }
    func delete(_ id: String) -> Result<Void, ClipRefusal> { .failure(ClipRefusal("not here")) }
    func export(_ id: String, to folder: String) -> Result<JSONValue, ClipRefusal> { .failure(ClipRefusal("not here")) }
    func retryExport(_ id: String) -> Result<JSONValue, ClipRefusal> { .failure(ClipRefusal("not here")) }
    func eject(_ name: String) -> Result<JSONValue, ClipRefusal> { .failure(ClipRefusal("not here")) }
    func refusal(replaying id: String) -> ClipRefusal { ClipRefusal("no clip \(id)") }
}

/// The real decoder thread on one file, pulled by the test instead of the loop's mailbox.
final class ThreadDecoding: ReplayDecoderPort {
    let path: String
    private(set) var decoder: ClipDecoder?
    init(path: String) { self.path = path }
    func open(_ id: String, soundRate: Int?) -> ReplaySource {
        decoder?.stop()
        decoder = ClipDecoder(path: path, sound: soundRate != nil, soundRate: soundRate) {}
        return .recording
    }
    func want(_ id: String, through position: Double) { decoder?.want(through: position) }
    func close(_ id: String) { decoder?.stop() }
}

/// The stage's sound output played into `ModelledSoundOutput` on the manual clock: its
/// starts and slips reported back as the kiosk's output reports them, unless the test
/// leaves the clock alone (`followSound` false).
final class ModelledSoundPort: SoundOutputPort {
    private let output: ModelledSoundOutput
    private let followSound: Bool
    private var streams: [Int: (slipped: (Double) -> Void, report: (SoundReport) -> Void, generation: Int)] = [:]
    private var generation = 0

    init(_ output: ModelledSoundOutput, followSound: Bool) {
        self.output = output
        self.followSound = followSound
    }

    var sampleRate: Int? { output.rate }
    var unavailableReason: String? { nil }
    func newGeneration() -> Int {
        generation += 1
        return generation
    }

    func stream(_ samples: [Int16], rate: Int, generation: Int, slipped: @escaping (Double) -> Void,
                report: @escaping (SoundReport) -> Void) -> Int? {
        let id = output.start(samples)
        streams[id] = (slipped, report, generation)
        return id
    }

    func append(_ samples: [Int16], rate: Int, to stream: Int) {
        let slipped = output.append(samples, to: stream)
        if followSound, slipped > 0 { streams[stream]?.slipped(slipped) }
    }

    func finish(_ stream: Int) { output.finish(stream) }

    func cancel(generation: Int) {
        for (id, entry) in streams where entry.generation == generation {
            output.cancel(id)
            streams[id] = nil
        }
    }

    func speak(_ text: String, generation: Int, report: @escaping (SoundReport) -> Void) { report(.failed("no speech here")) }

    /// The output rendered up to `time`; the starts it reported by then go to their streams.
    func advance(to time: Double) {
        for started in output.advance(to: time) where followSound {
            streams[started.id]?.report(.started(time: started.dac))
        }
    }
}
