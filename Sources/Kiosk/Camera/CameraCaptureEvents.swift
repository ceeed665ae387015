import Synchronization
import Stage

/// The hand-over from the capture thread to the event loop. The capture thread
/// publishes; the loop takes. Only the newest frame is kept: a frame the loop has not
/// taken yet is replaced (and counted as dropped), never queued, so a busy loop shows
/// the latest picture instead of falling behind. One wake-up per batch.
final class CameraCaptureEvents: Sendable {
    struct Batch {
        var frame: CameraFrame?
        var states: [CameraState] = []
        var replaced = 0
    }

    private struct Pending {
        var batch = Batch()
        var wakePending = false
    }

    private let pending = Mutex(Pending())
    private let wake: @Sendable () -> Void
    /// Every frame also goes to the recorder from here, on the capture thread, before
    /// the loop sees it: a take keeps frames the preview skips.
    private let recordingTap: RecordingTap?

    /// `wake` runs on the capture thread when the loop has something new to take;
    /// it posts to the loop's mailbox.
    init(recordingTap: RecordingTap? = nil, wake: @escaping @Sendable () -> Void) {
        self.recordingTap = recordingTap
        self.wake = wake
    }

    func publish(_ frame: CameraFrame) {
        recordingTap?.offer(frame)
        let (older, shouldWake) = pending.withLock { state -> (CameraFrame?, Bool) in
            let older = state.batch.frame
            if older != nil { state.batch.replaced += 1 }
            state.batch.frame = frame
            defer { state.wakePending = true }
            return (older, !state.wakePending)
        }
        // The replaced frame's memory returns to the pool here, outside the lock.
        _ = older
        if shouldWake { wake() }
    }

    func report(_ state: CameraState) {
        let shouldWake = pending.withLock { pending -> Bool in
            // A stream of failures must not grow without bound while the loop is busy.
            if pending.batch.states.count >= 16 { pending.batch.states.removeFirst() }
            pending.batch.states.append(state)
            defer { pending.wakePending = true }
            return !pending.wakePending
        }
        if shouldWake { wake() }
    }

    /// Everything published since the last call (on the loop).
    func take() -> Batch {
        pending.withLock { state in
            defer { state = Pending() }
            return state.batch
        }
    }
}
