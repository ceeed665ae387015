import Foundation
import Media
import Synchronization
@testable import Kiosk
@testable import Stage

/// A RecordingService on a manual clock with a fake frame source: timers and posted
/// work run only when the test says so; the recorder and its thread are real.
final class RecordingHarness {
    final class Clock: @unchecked Sendable {
        // Touched only on the test's thread.
        var now = 100.0
    }

    let clock = Clock()
    let folder: String
    let service: RecordingService
    let pool = CameraFramePool()
    let ring = AudioCaptureRing(capacityFrames: 48000 * 10)
    /// Free bytes the recorder sees in its folder (read on its thread).
    final class FreeSpace: Sendable {
        let bytes = Mutex<UInt64>(1 << 40)
    }
    final class Posted: Sendable {
        let queue = Mutex<[@Sendable () -> Void]>([])
    }
    let free = FreeSpace()
    private let posted = Posted()
    /// The service's timers, run as the loop would when the clock passes them.
    final class Timers {
        var pending: [(deadline: Double, run: () -> Void)] = []
    }
    let timers = Timers()
    var outcomes: [RecordingOutcome] = []
    private var audioFrame: Int64 = 0
    private var sequence: UInt32 = 0

    init(settings configure: (inout RecordingService.Settings) -> Void = { _ in }) throws {
        folder = NSTemporaryDirectory() + "rig-recording-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var settings = RecordingService.Settings(folder: folder)
        settings.recorder.minimumFreeBytes = 1_048_576
        settings.recorder.preset = "ultrafast"
        // A busy test machine must not make the encoder drop frames of a test not about that.
        settings.recorder.queueLimit = 1000
        configure(&settings)
        let free = free
        let posted = posted
        let clock = clock
        let timers = timers
        service = RecordingService(settings: settings, clock: { clock.now },
                                   wallClock: { Date(timeIntervalSince1970: 1_800_000_000) },
                                   post: { work in posted.queue.withLock { $0.append(work) } },
                                   schedule: { timers.pending.append(($0, $1)) },
                                   freeSpace: { _ in free.bytes.withLock { $0 } })
        service.audioRing = ring
        service.onEnded = { [unowned self] in outcomes.append($0) }
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// One 64x48 x8r8g8b8 frame stamped `now`, through the tap as the capture thread would.
    func frame(gray: UInt8 = 128) {
        sequence += 1
        let memory = pool.take(bytes: 64 * 48 * 4)
        memory.start.initializeMemory(as: UInt8.self, repeating: gray, count: 64 * 48 * 4)
        let frame = CameraFrame(format: .xrgb, width: 64, height: 48, bytesPerLine: 256, sequence: sequence,
                                timestamp: clock.now, memory: memory, pool: pool)
        service.tap.offer(frame)
    }

    /// 0.1 s of a quiet tone from the microphone, captured starting `now`.
    func sound() {
        let samples = (0..<4800).map { Int16(1000 * sin(Double($0) / 10)) }
        ring.append(CapturedPeriod(firstFrame: audioFrame, time: clock.now, sampleRate: 48000, samples: samples))
        audioFrame += 4800
    }

    var video: VideoTrackFormat { VideoTrackFormat(format: .xrgb, width: 64, height: 48) }

    /// Moves the clock in camera-frame steps, delivering frames (and sound every 0.1 s),
    /// and runs the service's pump as its timer would.
    func record(seconds: Double, frames: Bool = true, audio: Bool = true) {
        let end = clock.now + seconds
        var nextSound = clock.now
        while clock.now < end - 1e-9 {
            if frames { frame() }
            if audio && clock.now >= nextSound - 1e-9 {
                sound()
                nextSound += 0.1
            }
            clock.now += 1.0 / 30
            runDueTimers()
        }
    }

    func runDueTimers() {
        let due = timers.pending.filter { $0.deadline <= clock.now }
        timers.pending.removeAll { $0.deadline <= clock.now }
        for timer in due { timer.run() }
    }

    /// Runs posted work until `done` holds or 20 s pass (the encoder thread is real).
    func runUntil(_ done: () -> Bool) {
        let deadline = Date().addingTimeInterval(20)
        while !done() && Date() < deadline {
            let work = posted.queue.withLock { queue in defer { queue.removeAll() }; return queue }
            for item in work { item() }
            if work.isEmpty { usleep(2000) }
        }
    }
}
