import Foundation
import Testing
@testable import Kiosk

/// Retention at start and leases, on a manual clock: the clips' dates are set, "now"
/// is given, nothing depends on the machine's time.
@Suite(.serialized) struct RetentionAndLeasesTests {
    static let day = 86_400.0
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A clip recorded `age` days before `now`, with media unless `media` is false.
    func addClip(_ rig: RecordingHarness, _ id: String, ageDays: Double, media: Bool = true) throws {
        let json = #"{"annotations":{"kind":"prompter","script":"talk.txt"},"recording":{"duration":4.5}}"#
        let date = now.addingTimeInterval(-ageDays * Self.day)
        try Data(json.utf8).write(to: URL(fileURLWithPath: rig.folder + "/\(id).json"))
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: rig.folder + "/\(id).json")
        if media { try Data(repeating: 7, count: 3000).write(to: URL(fileURLWithPath: rig.folder + "/\(id).mp4")) }
    }

    func exists(_ rig: RecordingHarness, _ name: String) -> Bool {
        FileManager.default.fileExists(atPath: rig.folder + "/" + name)
    }

    @Test func oldMediaGoAtStartTheirMetadataStaysAndLeasedOnesAreKept() throws {
        let rig = try RecordingHarness { $0.retentionDays = 7 }
        try addClip(rig, "prompter-old", ageDays: 8)
        try addClip(rig, "prompter-leased", ageDays: 30)
        try addClip(rig, "prompter-new", ageDays: 6.9)
        try addClip(rig, "prompter-gone", ageDays: 40, media: false)
        let lease = rig.service.stored.leases.acquire(rig.folder + "/prompter-leased.mp4", for: "export")
        let removed = rig.service.stored.applyRetention(now: now)
        #expect(removed.map(\.id) == ["prompter-old"])
        #expect(!exists(rig, "prompter-old.mp4") && exists(rig, "prompter-old.json"))
        #expect(exists(rig, "prompter-leased.mp4") && exists(rig, "prompter-new.mp4"))
        // Once the lease is given back, the next start removes it too.
        rig.service.stored.leases.release(lease)
        #expect(rig.service.stored.applyRetention(now: now).map(\.id) == ["prompter-leased"])
        // A day later the 6.9-day-old clip is past the period.
        #expect(rig.service.stored.applyRetention(now: now.addingTimeInterval(Self.day)).map(\.id) == ["prompter-new"])
        let listed = rig.service.stored.clips()
        #expect(listed.map(\.id) == ["prompter-new", "prompter-old", "prompter-leased", "prompter-gone"])
        #expect(listed.allSatisfy { !$0.hasMedia && $0.duration == 4.5 && $0.script == "talk.txt" })
    }

    /// A rig left on: the hourly look removes what passed the period while it ran, on
    /// the harness's manual clock and a wall clock the test moves; a leased clip waits
    /// for the hour after its lease goes.
    @Test func retentionRunsEveryHourWhileTheKioskRuns() throws {
        let rig = try RecordingHarness { $0.retentionDays = 7 }
        try addClip(rig, "prompter-aging", ageDays: 6.5)
        try addClip(rig, "prompter-leased", ageDays: 6.5)
        var wall = now
        let schedule = RetentionSchedule(service: rig.service, clock: { rig.clock.now },
                                         schedule: { rig.timers.pending.append(($0, $1)) }, wallClock: { wall })
        var heard: [[String]] = []
        schedule.removed = { heard.append($0.map(\.id)) }
        schedule.start()
        let lease = rig.service.stored.leases.acquire(rig.folder + "/prompter-leased.mp4", for: "replay")
        // Within the period: an hour passes, nothing goes.
        rig.clock.now += RetentionSchedule.interval
        rig.runDueTimers()
        #expect(heard.isEmpty && exists(rig, "prompter-aging.mp4"))
        // Half a day later both are past it: the next hourly look removes the free one.
        wall = now.addingTimeInterval(Self.day / 2 + 60)
        rig.clock.now += RetentionSchedule.interval
        rig.runDueTimers()
        #expect(heard == [["prompter-aging"]])
        #expect(!exists(rig, "prompter-aging.mp4") && exists(rig, "prompter-aging.json"))
        #expect(exists(rig, "prompter-leased.mp4"))
        rig.service.stored.leases.release(lease)
        rig.clock.now += RetentionSchedule.interval
        rig.runDueTimers()
        #expect(heard.last == ["prompter-leased"] && !exists(rig, "prompter-leased.mp4"))
        // It keeps looking: one timer is always pending.
        #expect(rig.timers.pending.count == 1)
    }

    @Test func zeroDaysKeepsEverything() throws {
        let rig = try RecordingHarness { $0.retentionDays = 0 }
        try addClip(rig, "prompter-ancient", ageDays: 3000)
        #expect(rig.service.stored.applyRetention(now: now).isEmpty)
        #expect(exists(rig, "prompter-ancient.mp4"))
    }

    @Test func theTakeBeingWrittenIsNeverRemoved() throws {
        let clips = [Clip(id: "a", metadataPath: "/r/a.json", mediaPath: "/r/a.mp4", hasMedia: true,
                          recordedAt: now.addingTimeInterval(-9 * Self.day), kind: "prompter", duration: nil,
                          script: nil, bytes: 1)]
        let policy = RetentionPolicy(days: 7)
        #expect(policy.expiredMedia(clips, now: now, leases: MediaLeases(), recording: "/r/a.mp4").isEmpty)
        #expect(policy.expiredMedia(clips, now: now, leases: MediaLeases()).count == 1)
    }

    @Test func aLeasedClipIsNotDeletedAndAnExportCopiesItWhole() throws {
        let rig = try RecordingHarness()
        try addClip(rig, "prompter-1", ageDays: 1)
        let stick = rig.folder + "/stick"
        try FileManager.default.createDirectory(atPath: stick, withIntermediateDirectories: true)
        let started = try rig.service.stored.export(id: "prompter-1", to: stick)
        #expect(started.state == .copying)
        #expect(throws: RecordingError.clipInUse("prompter-1", ["export"])) { try rig.service.stored.delete(id: "prompter-1") }
        rig.runUntil { rig.service.stored.exports["prompter-1"]?.state != .copying }
        #expect(rig.service.stored.exports["prompter-1"]?.state == .done)
        #expect(rig.service.stored.leases.count == 0)
        #expect(FileManager.default.contents(atPath: stick + "/prompter-1.mp4") == Data(repeating: 7, count: 3000))
        #expect(FileManager.default.fileExists(atPath: stick + "/prompter-1.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: stick).allSatisfy { !$0.hasPrefix(".") })
        try rig.service.stored.delete(id: "prompter-1")
        #expect(!exists(rig, "prompter-1.mp4") && !exists(rig, "prompter-1.json"))
        #expect(throws: RecordingError.noClip("prompter-1")) { try rig.service.stored.delete(id: "prompter-1") }
        #expect(throws: RecordingError.noClip("../etc/passwd")) { try rig.service.stored.delete(id: "../etc/passwd") }
    }

    @Test func anExportToAMissingFolderSaysSo() throws {
        let rig = try RecordingHarness()
        try addClip(rig, "prompter-1", ageDays: 1)
        #expect(throws: RecordingError.self) { try rig.service.stored.export(id: "prompter-1", to: rig.folder + "/no-stick") }
        #expect(rig.service.stored.leases.count == 0)
    }
}
