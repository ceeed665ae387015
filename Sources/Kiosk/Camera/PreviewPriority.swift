import Media

/// Recording takes priority over preview conversion when the machine is short (issue
/// 20, as in seed 004). The preview converter asks before each frame: while a take's
/// video queue is filling, the preview gives way (its frames are skipped and counted)
/// long before the recorder would drop one, which it does only with the queue full.
/// Pure logic on the converter thread, tested with made-up queue fills and times.
struct PreviewPriority {
    enum Decision: Equatable {
        case convert
        /// Skipped so the recorder's encoder gets the CPU.
        case skip
    }

    /// The preview gives way from this many queued frames on (a quarter of the queue;
    /// the recorder itself reports pressure at half and drops at full).
    static func yieldMark(limit: Int) -> Int { max(1, (limit + 3) / 4) }
    /// And converts every frame again once the queue is down to this many (a tenth):
    /// the gap keeps it from flapping at one mark.
    static func resumeMark(limit: Int) -> Int { limit / 10 }
    /// While giving way one frame still converts this often, so the talent's picture
    /// does not freeze (the seed throttles its preview to about 10 fps in any case).
    static let keepAliveInterval = 0.5

    private(set) var yielding = false
    /// Frames skipped for the recorder so far.
    private(set) var skipped = 0
    private var lastConverted: Double?
    private var droppedSeen = 0

    /// For a frame arriving at `time` (seconds), with the recorder's queue as it is now
    /// (nil: nothing is recording).
    mutating func decide(recorder: RecorderQueueFill?, at time: Double) -> Decision {
        guard let recorder, recorder.recording else {
            yielding = false
            droppedSeen = 0
            return converted(at: time)
        }
        // A drop the recorder made since the last frame means it is already short.
        let recorderDropped = recorder.dropped > droppedSeen
        droppedSeen = recorder.dropped
        if yielding {
            if recorder.queued <= Self.resumeMark(limit: recorder.limit) && !recorderDropped { yielding = false }
        } else if recorder.queued >= Self.yieldMark(limit: recorder.limit) || recorderDropped {
            yielding = true
        }
        guard yielding else { return converted(at: time) }
        // The margin keeps a frame due exactly at the interval (15 frames at 30 fps) in.
        if let last = lastConverted, time - last < Self.keepAliveInterval - 1e-6 {
            skipped += 1
            return .skip
        }
        return converted(at: time)
    }

    private mutating func converted(at time: Double) -> Decision {
        lastConverted = time
        return .convert
    }
}
