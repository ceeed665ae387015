import Foundation
import Stage

/// The recordings folder as the kiosk finds it at start: a take a crash or power cut cut
/// short plays to its last fragment and is kept, a game attempt's is removed (it is void
/// and retried), and media past `[recording] retention_days` go (their JSON stays).
enum RecordingsAtStart {
    static func settle(_ service: RecordingService, now: Date = Date()) {
        let cutShort = service.settleIncompleteFiles()
        for file in cutShort.recovered { KioskLog.notice("recovered \(file), a take cut short by a crash or power cut") }
        for file in cutShort.removed { KioskLog.notice("removed \(file), a recording cut short by a crash") }
        for clip in service.applyRetention(now: now) {
            KioskLog.notice("removed the media of \(clip.id), older than \(service.settings.retentionDays) days (its JSON stays)")
        }
    }
}
