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
    /// Called on the loop when a new frame is the latest (with the outer preview the
    /// preview thread made of it, if any): mark the camera layers dirty.
    var onFrame: ((CameraFrame, CameraPreviewPicture?) -> Void)?
    /// The format, size and rate the capture delivers (what a recording is made of):
    /// the loop's frames are converted for the displays and may differ.
    private(set) var captured: CameraFrameShape?

    private let capture: CameraCapture
    /// Converts frames for the displays off the loop (nil: `settings.previewThread` off).
    private let converter: CameraPreviewConverter?
    private let clock: () -> Double

    init(settings: CameraSettings, mailbox: LoopMailbox, recordingTap: RecordingTap? = nil,
         clock: @escaping () -> Double = MonotonicTime.now,
         log: @escaping @Sendable (String) -> Void = { KioskLog.info($0) }) throws {
        self.settings = settings
        self.clock = clock
        let handle = LoopBound<CameraFeed>()
        let events = CameraCaptureEvents(recordingTap: recordingTap) { [mailbox] in
            mailbox.post { handle.value?.collect() }
        }
        if settings.previewThread {
            let converter = try CameraPreviewConverter(recorderQueue: { [recordingTap] in recordingTap?.videoQueue }) {
                [weak events] frame, preview in events?.deliver(frame, preview: preview)
            }
            events.convert(with: converter)
            self.converter = converter
        } else {
            converter = nil
        }
        capture = try CameraCapture(settings: settings, events: events, log: log)
        handle.value = self
    }

    deinit {
        capture.stop()
        converter?.stop()
    }

    func start() {
        converter?.start()
        capture.start()
    }

    /// Stops the capture and preview threads and closes the device (on shutdown);
    /// false if a thread did not finish in time (stuck in a driver call).
    @discardableResult
    func stop() -> Bool {
        let captureStopped = capture.stop()
        return (converter?.stop() ?? true) && captureStopped
    }

    /// On the loop after each outer frame: where the preview thread should fit the
    /// outer display's preview (nil: the outer display shows no camera).
    func previewWanted(_ target: PreviewTarget?) {
        guard target != lastTarget else { return }
        lastTarget = target
        converter?.setTarget(target)
    }
    private var lastTarget: PreviewTarget?

    /// Takes what the capture thread published since the last wake-up (on the loop).
    fileprivate func collect() {
        let batch = capture.events.take()
        for change in batch.states {
            state = change
            if case .streaming = change {} else { latestFrame = nil }
            onStateChange?(change)
        }
        for change in batch.states {
            if case let .streaming(mode, _) = change {
                captured = CameraFrameShape(format: settings.delivery.published(mode.format), width: mode.width,
                                            height: mode.height)
            } else {
                captured = nil
            }
        }
        if let frame = batch.frame, case .streaming = state {
            stats.frameArrived(sequence: frame.sequence, at: clock(), replacedBeforeDelivery: batch.replaced)
            latestFrame = frame
            onFrame?(frame, batch.preview)
        }
    }

    /// A flip containing `frame` completed at `flipTime` (CLOCK_MONOTONIC seconds, from
    /// the page-flip event): feeds the latency and preview rate in `status`.
    func presented(_ frame: CameraFrame, flipTime: Double) {
        stats.presented(sequence: frame.sequence, captureTimestamp: frame.timestamp, flipTime: flipTime)
    }

    var status: CameraStatus {
        var status = CameraStatus(device: settings.device, path: settings.devicePath, state: state, stats: stats,
                                  now: clock())
        status.preview = converter?.counts
        return status
    }
}

/// What a capture delivers: the device's format (or x8r8g8b8 when the capture thread
/// converts it) and size.
struct CameraFrameShape: Equatable {
    var format: CameraPixelFormat
    var width: Int
    var height: Int
}
