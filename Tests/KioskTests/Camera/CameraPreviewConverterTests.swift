import Foundation
import Media
import Synchronization
import Testing
@testable import Kiosk
@testable import Stage
@testable import Render

/// The preview thread: frames from the capture side converted and handed to the loop
/// through CameraCaptureEvents, the next converted only once the loop took the last,
/// and none converted while a take's queue asks the preview to give way.
@Suite struct CameraPreviewConverterTests {
    private func frame(_ sequence: UInt32, pool: CameraFramePool, at time: Double? = nil) -> CameraFrame {
        let memory = pool.take(bytes: 16 * 8 * 2)
        memory.start.initializeMemory(as: UInt8.self, repeating: 128, count: 16 * 8 * 2)
        return CameraFrame(format: .yuyv, width: 16, height: 8, bytesPerLine: 32, sequence: sequence,
                           timestamp: time ?? Double(sequence) / 30, memory: memory, pool: pool)
    }

    /// Polls `condition` until it holds or 5 s pass (the converter runs on its own thread).
    private func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = MonotonicTime.now() + 5
        while !condition() {
            if MonotonicTime.now() > deadline { return false }
            var none = pollfd(fd: -1, events: 0, revents: 0)
            _ = poll(&none, 0, 2)
        }
        return true
    }

    /// What the loop takes once the converter has handed something over (counted
    /// before the hand-over, so a take right after the count may find nothing yet).
    private func taken(_ events: CameraCaptureEvents) -> CameraCaptureEvents.Batch? {
        var batch: CameraCaptureEvents.Batch?
        _ = eventually {
            let next = events.take()
            if next.frame != nil { batch = next }
            return batch != nil
        }
        return batch
    }

    @Test func convertsForTheLoopOnlyWhatTheLoopTakes() throws {
        let events = CameraCaptureEvents { }
        let queue = Mutex<RecorderQueueFill?>(nil)
        let converter = try CameraPreviewConverter(recorderQueue: { queue.withLock { $0 } }) { [weak events] frame, preview in
            events?.deliver(frame, preview: preview)
        }
        events.convert(with: converter)
        converter.setTarget(PreviewTarget(size: PixelSize(width: 32, height: 18), mirrored: true))
        converter.start()
        defer { converter.stop() }
        let pool = CameraFramePool(keep: 8)
        events.publish(frame(1, pool: pool))
        #expect(eventually { converter.counts.converted == 1 })
        // The loop has not taken frame 1: frames 2 and 3 wait, the newest replacing.
        events.publish(frame(2, pool: pool))
        events.publish(frame(3, pool: pool))
        // Until the loop takes it nothing more converts (the offers woke the thread).
        #expect(eventually { converter.counts.replaced == 1 })
        #expect(converter.counts.converted == 1)
        let first = taken(events)
        #expect(first?.frame?.format == .xrgb && first?.frame?.sequence == 1)
        #expect(first?.preview?.sequence == 1 && first?.preview?.size == PixelSize(width: 32, height: 18))
        // Taken: the newest waiting frame converts, the one it replaced never does.
        #expect(taken(events)?.frame?.sequence == 3)
        #expect(converter.counts.converted == 2)

        // A take's queue a third full: the preview gives way. Frame 4, a frame-time
        // after the last converted, is skipped; frame 5, 0.5 s later, is the keep-alive.
        queue.withLock { $0 = RecorderQueueFill(queued: 10, limit: 30) }
        events.publish(frame(4, pool: pool))
        #expect(eventually { converter.counts.skippedForRecording == 1 })
        #expect(converter.counts.converted == 2)
        events.publish(frame(5, pool: pool, at: 0.1 + PreviewPriority.keepAliveInterval))
        #expect(taken(events)?.frame?.sequence == 5)
        #expect(converter.counts.skippedForRecording == 1)
    }
}
