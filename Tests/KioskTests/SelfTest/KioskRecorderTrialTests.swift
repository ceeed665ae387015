import Foundation
import Media
import Testing
@testable import Kiosk
@testable import Stage

/// The self-test's trial encode through rig's real recorder (libx264, fragmented MP4).
@Suite struct KioskRecorderTrialTests {
    @Test func aTrialEncodeRunsTheRealRecorderInRealTimeAndLeavesNothingBehind() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-trial-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var settings = RecorderSettings()
        settings.minimumFreeBytes = 1_048_576
        let started = MonotonicTime.now()
        let check = KioskRecorderTrial.run(format: VideoTrackFormat(format: .yuyv, width: 320, height: 180),
                                           framesPerSecond: 15, settings: settings, folder: folder, seconds: 1)
        let took = MonotonicTime.now() - started
        #expect(check.failure == nil)
        let trial = try #require(check.trials.first)
        #expect(check.trials.count == 1)
        #expect(trial.preset == "veryfast")
        #expect(trial.offered == 15)
        #expect(trial.encoded == 15, "every frame fed reached the file")
        #expect(trial.keptUp)
        // Fed in real time: 15 frames at 15 fps take about a second, not an instant.
        #expect(took >= 0.9)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "the trial file is deleted")
    }

    @Test func theTrialsPatternFillsTheCamerasFrameLayout() {
        let frames = KioskRecorderTrial.pattern(VideoTrackFormat(format: .nv12, width: 64, height: 36))
        #expect(frames.count == KioskRecorderTrial.patterns)
        #expect(frames.allSatisfy { $0.1 == 64 })
    }
}
