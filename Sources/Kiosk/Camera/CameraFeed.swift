import Foundation
import Render
import Stage

/// The camera as the event loop sees it: owns the capture thread, takes the newest
/// frame when the mailbox says one is ready, keeps the state and the statistics.
/// Scenes read `latestFrame` and `state`; the display code calls `presented` when a
/// flip showing a camera frame completes.
final class CameraFeed {
    let settings: CameraSettings
    private(set) var state: CameraState = .starting
    /// The newest frame; nil until the first one and while the camera is unavailable.
    private(set) var latestFrame: CameraFrame?
    private(set) var stats = CameraPreviewStats()
    /// Called on the loop for each state change, in order (even several per wake-up).
    var onStateChange: ((CameraState) -> Void)?
    /// Called on the loop when a new frame is the latest: mark the camera layers dirty.
    var onFrame: ((CameraFrame) -> Void)?

    private let capture: CameraCapture
    private let clock: () -> Double

    init(settings: CameraSettings, mailbox: LoopMailbox, recordingTap: RecordingTap? = nil,
         clock: @escaping () -> Double = MonotonicTime.now,
         log: @escaping @Sendable (String) -> Void = { KioskLog.info($0) }) throws {
        self.settings = settings
        self.clock = clock
        let handle = CameraFeedHandle()
        let events = CameraCaptureEvents(recordingTap: recordingTap) { [mailbox] in
            mailbox.post { handle.collect() }
        }
        capture = try CameraCapture(settings: settings, events: events, log: log)
        handle.feed = self
    }

    deinit { capture.stop() }

    func start() { capture.start() }

    /// Stops the capture thread and closes the device (on shutdown); false if the
    /// thread did not finish in time (stuck in a driver call).
    @discardableResult
    func stop() -> Bool { capture.stop() }

    /// Takes what the capture thread published since the last wake-up (on the loop).
    fileprivate func collect() {
        let batch = capture.events.take()
        for change in batch.states {
            state = change
            if case .streaming = change {} else { latestFrame = nil }
            onStateChange?(change)
        }
        if let frame = batch.frame, case .streaming = state {
            stats.frameArrived(sequence: frame.sequence, at: clock(), replacedBeforeDelivery: batch.replaced)
            latestFrame = frame
            onFrame?(frame)
        }
    }

    /// A flip containing `frame` completed at `flipTime` (CLOCK_MONOTONIC seconds, from
    /// the page-flip event): feeds the latency and preview rate in `status`.
    func presented(_ frame: CameraFrame, flipTime: Double) {
        stats.presented(sequence: frame.sequence, captureTimestamp: frame.timestamp, flipTime: flipTime)
    }

    var status: CameraStatus {
        CameraStatus(device: settings.device, path: settings.devicePath, state: state, stats: stats, now: clock())
    }
}

/// Carries the loop-side feed into closures posted through the mailbox. Only touched
/// inside mailbox work, which runs on the loop thread, hence the unchecked Sendable.
private final class CameraFeedHandle: @unchecked Sendable {
    weak var feed: CameraFeed?
    private let loopThread = pthread_self()

    func collect() {
        assert(pthread_equal(pthread_self(), loopThread) != 0, "camera feed touched off the loop thread")
        feed?.collect()
    }
}
