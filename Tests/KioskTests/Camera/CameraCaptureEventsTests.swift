import Foundation
import Synchronization
import Testing
@testable import Kiosk
@testable import Stage
@testable import Render

@Suite struct CameraCaptureEventsTests {
    private func frame(_ sequence: UInt32, pool: CameraFramePool) -> CameraFrame {
        CameraFrame(format: .yuyv, width: 2, height: 2, bytesPerLine: 4, sequence: sequence, timestamp: Double(sequence),
                    memory: pool.take(bytes: 8), pool: pool)
    }

    @Test func keepsOnlyTheNewestFrameAndWakesOncePerBatch() {
        let wakes = Mutex(0)
        let events = CameraCaptureEvents { wakes.withLock { $0 += 1 } }
        let pool = CameraFramePool()
        events.report(.starting)
        for sequence in 1...5 { events.publish(frame(UInt32(sequence), pool: pool)) }
        #expect(wakes.withLock { $0 } == 1)
        let batch = events.take()
        #expect(batch.frame?.sequence == 5)
        #expect(batch.replaced == 4)
        #expect(batch.states == [.starting])
        // Five frames through two blocks: each replaced frame's memory went back to the
        // pool and the next frame reused it.
        #expect(pool.freeCount == 1)
        events.publish(frame(6, pool: pool))
        #expect(wakes.withLock { $0 } == 2)
        #expect(events.take().frame?.sequence == 6)
        #expect(events.take().frame == nil)
    }

    @Test func frameMemoryIsReusedNotReallocated() {
        let pool = CameraFramePool(keep: 2)
        let first = pool.take(bytes: 64)
        pool.giveBack(first)
        let second = pool.take(bytes: 32)
        #expect(second.start == first.start)
        pool.giveBack(second)
    }

    @Test func feedDeliversStatesInOrderThroughTheLoop() throws {
        // A device path that does not exist: the real capture thread reports it
        // unavailable through the mailbox, and the loop keeps running.
        let loop = try EventLoop()
        let settings = CameraSettings(device: "/nonexistent/rig-camera-test")
        let feed = try CameraFeed(settings: settings, mailbox: loop.mailbox, log: { _ in })
        var seen: [CameraState] = []
        feed.onStateChange = { seen.append($0) }
        feed.start()
        let deadline = loop.clock() + 5
        while seen.count < 2 && loop.clock() < deadline { loop.runOnce(timeout: 0.1) }
        #expect(seen == [.starting, .unavailable("no camera at /nonexistent/rig-camera-test")])
        #expect(feed.state.previewMessage == "Camera unavailable")
        #expect(feed.latestFrame == nil)
        #expect(feed.status.fields.contains { $0.key == "camera.state" && $0.value == "unavailable" })
        #expect(feed.stop())
    }
}
