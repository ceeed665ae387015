import Synchronization

/// One period of captured sound, mono, stamped on CLOCK_MONOTONIC.
struct CapturedPeriod: Sendable, Equatable {
    /// The index of its first frame since capture began (over restarts too).
    let firstFrame: Int64
    /// When its first frame was at the ADC.
    let time: Double
    let sampleRate: Int
    let samples: [Int16]

    var endTime: Double { time + Double(samples.count) / Double(sampleRate) }
}

/// The last few seconds of the room microphone, for the recorder to read. Bounded:
/// the oldest periods go when it is full, and a reader that fell behind learns how
/// much it missed. The capture thread appends; any thread reads.
final class AudioCaptureRing: Sendable {
    struct Read: Sendable {
        var periods: [CapturedPeriod]
        /// Frames that were dropped from the ring before this reader got them.
        var missedFrames: Int64
    }

    private struct Storage {
        var periods: [CapturedPeriod] = []
        var head = 0
        var frames = 0
        var dropped: Int64 = 0
    }

    let capacityFrames: Int
    private let storage = Mutex(Storage())

    init(capacityFrames: Int) { self.capacityFrames = max(1, capacityFrames) }

    func append(_ period: CapturedPeriod) {
        storage.withLock { s in
            s.periods.append(period)
            s.frames += period.samples.count
            while s.frames > capacityFrames, s.head < s.periods.count - 1 {
                s.frames -= s.periods[s.head].samples.count
                s.dropped += Int64(s.periods[s.head].samples.count)
                s.head += 1
            }
            // Compact now and then rather than shifting the array on every drop.
            if s.head > 256 && s.head * 2 > s.periods.count {
                s.periods.removeFirst(s.head)
                s.head = 0
            }
        }
    }

    /// The periods whose first frame is at or after `frame` (0 for everything kept).
    func read(from frame: Int64) -> Read {
        storage.withLock { s in
            let kept = s.periods[s.head...]
            let oldest = kept.first?.firstFrame ?? frame
            let periods = kept.filter { $0.firstFrame >= frame }
            return Read(periods: Array(periods), missedFrames: max(0, oldest - frame))
        }
    }

    var latest: CapturedPeriod? { storage.withLock { s in s.head < s.periods.count ? s.periods.last : nil } }
    var bufferedFrames: Int { storage.withLock { $0.frames } }
}
