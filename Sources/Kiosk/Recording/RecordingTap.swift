import Media
import Render
import Stage
import Synchronization

/// Where the capture thread hands each camera frame to the recorder while a take
/// runs. The frame's pooled memory is lent, not copied (the recorder keeps the frame
/// alive until it has encoded it), and nothing here waits: `Recorder.append` drops
/// a frame rather than block. Frames never pass through the event loop on the way.
package final class RecordingTap: Sendable {
    private let recorder = Mutex<Recorder?>(nil)

    package init() {}

    package func attach(_ target: Recorder?) { recorder.withLock { $0 = target } }

    /// The running take's video queue (nil: no take): the preview thread gives way
    /// to the recorder while it fills.
    package var videoQueue: RecorderQueueFill? { recorder.withLock { $0 }?.videoQueue }

    /// On the capture thread (or a test's fake source), for every frame it delivers.
    package func offer(_ frame: CameraFrame) {
        guard let target = recorder.withLock({ $0 }), let video = Self.recorderFrame(frame) else { return }
        target.append(video)
    }

    /// The recorder's view of a camera frame, borrowing its memory; nil for layouts the
    /// recorder does not take (the kiosk delivers x8r8g8b8 unless told otherwise).
    package static func recorderFrame(_ frame: CameraFrame) -> RecorderVideoFrame? {
        guard let format = recordedFormat(frame.format) else { return nil }
        let bytes = RecordedBytes(borrowing: frame.baseAddress, count: frame.byteCount, owner: frame)
        return RecorderVideoFrame(format: format, width: frame.width, height: frame.height,
                                  bytesPerLine: frame.bytesPerLine, timestamp: frame.timestamp, bytes: bytes)
    }

    /// The camera's frame layout now, as the recorder takes it: what the capture hands
    /// over, or the frame the stage shows when the frames come from elsewhere than this
    /// kiosk's camera (headless tests). nil: no picture to record.
    static func videoFormat(of camera: CameraFeed?, shown: CameraFrame?) -> VideoTrackFormat? {
        // What the capture hands the recorder, which the displays' frames may not be.
        if let captured = camera?.captured {
            guard let format = recordedFormat(captured.format) else { return nil }
            return VideoTrackFormat(format: format, width: captured.width, height: captured.height)
        }
        guard let frame = camera?.latestFrame ?? shown, let format = recordedFormat(frame.format) else { return nil }
        return VideoTrackFormat(format: format, width: frame.width, height: frame.height)
    }

    package static func recordedFormat(_ format: CameraPixelFormat) -> RecordedPixelFormat? {
        switch format {
        case .yuyv: .yuyv
        case .nv12: .nv12
        case .xrgb: .xrgb
        default: nil
        }
    }
}
