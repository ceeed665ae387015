import CLinux
import Foundation
import Media
import Render
import Stage
import Synchronization

/// Converts camera frames for the displays on a thread of its own, so neither the
/// capture thread (which feeds the recorder) nor the event loop (which composes the
/// 60 Hz frames) spends its time in libyuv. The capture thread offers each frame; only
/// the newest waits (an older one not yet taken is replaced, never queued). For each
/// frame taken it makes the x8r8g8b8 picture the loop's thumbnails read and, when the
/// outer display shows the camera, that display's preview: mirrored, fitted and
/// letterboxed at its size. Both go to `deliver`, which hands them to the loop; the
/// next frame converts once the loop has taken them (`pictureTaken`), so a busy loop
/// costs no conversions it would never show.
///
/// Recording comes first (`PreviewPriority`): while the recorder's queue fills, frames
/// are skipped here, and counted, before the recorder would drop any.
package final class CameraPreviewConverter: Sendable {
    package struct Counts: Sendable, Equatable {
        /// Frames skipped so the recorder's encoder gets the CPU.
        package var skippedForRecording = 0
        /// Frames replaced by a newer one before this thread took them.
        package var replaced = 0
        package var converted = 0
        /// Seconds spent converting, for `status` and `rig bench`.
        package var conversionSeconds = 0.0
    }

    private struct Input {
        var frame: CameraFrame?
        var counts = Counts()
        /// A delivered picture the loop has not taken yet: the next waits for it, so no
        /// conversion is spent on a picture the loop would replace unseen.
        var delivered = false
    }

    private let thread: DeviceThread
    private let input = Mutex(Input())
    private let target = Mutex<PreviewTarget?>(nil)
    private let recorderQueue: @Sendable () -> RecorderQueueFill?
    private let deliver: @Sendable (CameraFrame, CameraPreviewPicture?) -> Void
    private let clock: @Sendable () -> Double
    package let framePool = CameraFramePool()
    package let previewPool = CameraPreviewPool()

    /// `recorderQueue` says how full the running take's video queue is (nil: none runs);
    /// `deliver` runs on this thread with each converted frame and its preview.
    package init(recorderQueue: @escaping @Sendable () -> RecorderQueueFill?,
         clock: @escaping @Sendable () -> Double = MonotonicTime.now,
         deliver: @escaping @Sendable (CameraFrame, CameraPreviewPicture?) -> Void) throws {
        self.recorderQueue = recorderQueue
        self.clock = clock
        self.deliver = deliver
        thread = try DeviceThread(name: "rig-preview")
    }

    package func start() { thread.start { [self] in run() } }

    @discardableResult
    package func stop(timeout: Double = 3) -> Bool { thread.stop(timeout: timeout) }

    /// On the capture thread: the newest frame, replacing one not yet taken.
    package func offer(_ frame: CameraFrame) {
        let older = input.withLock { state -> CameraFrame? in
            let older = state.frame
            if older != nil { state.counts.replaced += 1 }
            state.frame = frame
            return older
        }
        // The replaced frame's memory returns to the pool here, outside the lock.
        _ = older
        thread.wake()
    }

    /// On the loop: the last delivered picture was taken; the next frame may convert.
    package func pictureTaken() {
        let wasWaiting = input.withLock { state -> Bool in
            defer { state.delivered = false }
            return state.delivered && state.frame != nil
        }
        if wasWaiting { thread.wake() }
    }

    /// On the loop: the outer display's preview size and mirroring (nil: not shown).
    package func setTarget(_ wanted: PreviewTarget?) {
        target.withLock { $0 = wanted }
    }

    package var counts: Counts { input.withLock { $0.counts } }

    private func run() {
        let converter = CameraFrameConverter()
        var priority = PreviewPriority()
        var lastFailure: String?
        while !thread.stopping {
            var wake = pollfd(fd: thread.wakeFD, events: Int16(POLLIN), revents: 0)
            _ = poll(&wake, 1, -1)
            thread.clearWake()
            while !thread.stopping, let frame = input.withLock({ state -> CameraFrame? in
                guard !state.delivered else { return nil }
                defer { state.frame = nil }
                return state.frame
            }) {
                let started = clock()
                if priority.decide(recorder: recorderQueue(), at: frame.timestamp) == .skip {
                    input.withLock { $0.counts.skippedForRecording = priority.skipped }
                    continue
                }
                let converted = convert(frame, converter: converter, lastFailure: &lastFailure)
                let seconds = clock() - started
                // Marked before the hand-over: the loop may take it before `deliver` returns.
                input.withLock {
                    $0.counts.converted += 1
                    $0.counts.conversionSeconds += seconds
                    $0.delivered = converted != nil
                }
                if let converted { deliver(converted.frame, converted.preview) }
            }
        }
    }

    /// The frame as x8r8g8b8 at its own size (as it is, when it already is) and the
    /// outer preview from it. Nil for a frame that does not convert: skipped, and
    /// logged when the reason is new (a camera sending bad frames would otherwise
    /// write the journal 30 times a second).
    private func convert(_ frame: CameraFrame, converter: CameraFrameConverter, lastFailure: inout String?)
        -> (frame: CameraFrame, preview: CameraPreviewPicture?)? {
        do {
            var picture = frame
            if frame.format != .xrgb {
                let rowBytes = frame.width * 4
                let memory = framePool.take(bytes: rowBytes * frame.height)
                picture = CameraFrame(format: .xrgb, width: frame.width, height: frame.height, bytesPerLine: rowBytes,
                                      sequence: frame.sequence, timestamp: frame.timestamp, memory: memory,
                                      pool: framePool)
                let region = try XRGBRegion(base: memory.start, bytesPerRow: rowBytes, width: frame.width,
                                            height: frame.height)
                try converter.draw(try frame.image(), into: region, mirrored: false)
            }
            guard let wanted = target.withLock({ $0 }) else { return (picture, nil) }
            let canvas = try previewPool.take(size: wanted.size)
            guard let base = canvas.pixels.baseAddress else { return (picture, nil) }
            let region = try XRGBRegion(base: UnsafeMutableRawPointer(base), bytesPerRow: canvas.width * 4,
                                        width: canvas.width, height: canvas.height)
            try converter.draw(try picture.image(), into: region, mirrored: wanted.mirrored)
            return (picture, CameraPreviewPicture(canvas: canvas, sequence: frame.sequence, mirrored: wanted.mirrored,
                                                  pool: previewPool))
        } catch {
            let reason = "\(error)"
            if reason != lastFailure {
                KioskLog.warning("camera preview: frame \(frame.sequence) not converted: \(reason)")
                lastFailure = reason
            }
            return nil
        }
    }
}
