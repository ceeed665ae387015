import Synchronization
import Stage

/// The hand-over from the capture thread to the event loop (through the preview
/// thread when there is one). The capture thread publishes; the loop takes. Only the newest frame is kept: a frame the loop has not
/// taken yet is replaced (and counted as dropped), never queued, so a busy loop shows
/// the latest picture instead of falling behind. One wake-up per batch.
final class CameraCaptureEvents: Sendable {
    struct Batch {
        var frame: CameraFrame?
        /// The outer preview of `frame`, made on the preview thread.
        var preview: CameraPreviewPicture?
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

    /// Converts frames for the displays off the loop; nil hands them over as captured.
    private let converter = Mutex<CameraPreviewConverter?>(nil)

    /// `wake` runs on the capture (or preview) thread when the loop has something new
    /// to take; it posts to the loop's mailbox.
    init(recordingTap: RecordingTap? = nil, wake: @escaping @Sendable () -> Void) {
        self.recordingTap = recordingTap
        self.wake = wake
    }

    /// From now on frames go through `converter` on their way to the loop.
    func convert(with converter: CameraPreviewConverter?) {
        self.converter.withLock { $0 = converter }
    }

    /// On the capture thread, for every frame: to the recorder first, then to the
    /// preview thread (or straight to the loop without one).
    func publish(_ frame: CameraFrame) {
        recordingTap?.offer(frame)
        if let converter = converter.withLock({ $0 }) {
            converter.offer(frame)
        } else {
            deliver(frame, preview: nil)
        }
    }

    /// The frame (and its outer preview) for the loop: the newest replaces one the
    /// loop has not taken yet.
    func deliver(_ frame: CameraFrame, preview: CameraPreviewPicture?) {
        let (older, shouldWake) = pending.withLock { state -> ((CameraFrame?, CameraPreviewPicture?), Bool) in
            let older = (state.batch.frame, state.batch.preview)
            if older.0 != nil { state.batch.replaced += 1 }
            state.batch.frame = frame
            state.batch.preview = preview
            defer { state.wakePending = true }
            return (older, !state.wakePending)
        }
        // The replaced frame's memory returns to its pool here, outside the lock.
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
        let batch = pending.withLock { state in
            defer { state = Pending() }
            return state.batch
        }
        if batch.frame != nil { converter.withLock { $0 }?.pictureTaken() }
        return batch
    }
}
