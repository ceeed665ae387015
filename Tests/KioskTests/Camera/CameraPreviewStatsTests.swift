import Testing
@testable import Kiosk
@testable import Stage

@Suite struct CameraPreviewStatsTests {
    @Test func latencyRunsFromTheBufferTimestampToTheFirstFlipShowingTheFrame() {
        var stats = CameraPreviewStats()
        stats.presented(sequence: 1, captureTimestamp: 10.000, flipTime: 10.040)
        // The same frame in a later flip (overlay changed) is not a new presentation.
        stats.presented(sequence: 1, captureTimestamp: 10.000, flipTime: 10.056)
        stats.presented(sequence: 2, captureTimestamp: 10.033, flipTime: 10.093)
        #expect(stats.framesShown == 2)
        #expect(abs((stats.lastLatency ?? 0) - 0.060) < 1e-9)
        #expect(abs((stats.meanLatency ?? 0) - 0.050) < 1e-9)
        #expect(abs((stats.worstLatency ?? 0) - 0.060) < 1e-9)
    }

    @Test func previewRateCountsFramesShownOverTheWindow() {
        var stats = CameraPreviewStats()
        for index in 0..<61 {
            let time = 100.0 + Double(index) / 30
            stats.presented(sequence: UInt32(index), captureTimestamp: time - 0.05, flipTime: time)
        }
        #expect(abs(stats.previewFramesPerSecond(now: 102.0) - 30) < 0.01)
        // Stalled: after the window passes with nothing new, the rate reads zero.
        #expect(stats.previewFramesPerSecond(now: 105.0) == 0)
    }

    @Test func sequenceGapsCountAsDroppedFrames() {
        var stats = CameraPreviewStats()
        stats.frameArrived(sequence: 10, at: 1.0)
        stats.frameArrived(sequence: 11, at: 1.033)
        stats.frameArrived(sequence: 14, at: 1.133, replacedBeforeDelivery: 2)
        #expect(stats.framesReceived == 3)
        #expect(stats.framesDropped == 2)
        #expect(abs(stats.captureFramesPerSecond(now: 1.2) - 2 / 0.133) < 0.01)
    }

    @Test func statusFieldsNameTheModeAndLatency() {
        var stats = CameraPreviewStats()
        stats.presented(sequence: 1, captureTimestamp: 1.0, flipTime: 1.0425)
        let mode = CameraMode(format: .yuyv, width: 1920, height: 1080, framesPerSecond: 30)
        let status = CameraStatus(device: "cam", path: "/dev/v4l/by-id/cam", state: .streaming(mode), stats: stats, now: 1.1)
        let fields = Dictionary(uniqueKeysWithValues: status.fields.map { ($0.key, $0.value) })
        #expect(fields["camera.state"] == "streaming")
        #expect(fields["camera.format"] == "YUYV")
        #expect(fields["camera.size"] == "1920x1080")
        #expect(fields["camera.fps"] == "30.00")
        #expect(fields["camera.latency_ms"] == "42.5")
        let away = CameraStatus(device: "cam", path: "/dev/x", state: .unavailable("no camera at /dev/x"), stats: stats, now: 1.1)
        #expect(away.fields.contains { $0.key == "camera.reason" && $0.value == "no camera at /dev/x" })
        #expect(away.mode == nil)
    }
}
