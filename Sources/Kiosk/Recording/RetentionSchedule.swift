import Foundation
import Stage

/// `[recording] retention_days` while the kiosk runs, not only at start: a rig left on
/// for a week would otherwise keep the week's media of people. Every hour the same rule
/// as at start removes media past the period (their JSON stays; a clip exported or
/// replayed now is kept until its lease goes, and is removed the hour after).
final class RetentionSchedule {
    static let interval = 3600.0

    private let service: RecordingService
    private let clock: () -> Double
    private let schedule: (Double, @escaping () -> Void) -> Void
    private let wallClock: () -> Date
    /// Hears the clips whose media went (the Clips screen reads the list again).
    var removed: ([Clip]) -> Void = { _ in }

    init(service: RecordingService, clock: @escaping () -> Double,
         schedule: @escaping (Double, @escaping () -> Void) -> Void, wallClock: @escaping () -> Date = Date.init) {
        self.service = service
        self.clock = clock
        self.schedule = schedule
        self.wallClock = wallClock
    }

    /// The first look an hour from now (start has just applied the rule).
    func start() { next() }

    private func next() {
        schedule(clock() + Self.interval) { [weak self] in
            guard let self else { return }
            let gone = service.stored.applyRetention(now: wallClock())
            for clip in gone {
                KioskLog.notice("removed the media of \(clip.id), older than \(service.settings.retentionDays) days (its JSON stays)")
            }
            if !gone.isEmpty { removed(gone) }
            next()
        }
    }
}
