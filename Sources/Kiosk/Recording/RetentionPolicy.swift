import Foundation

/// Which clips lose their media at start: recorded more than `days` before `now`, not
/// leased and not the take being written. Their JSON stays, so what was recorded (and
/// a game's outcomes) is still known. 0 days keeps everything. Pure: the caller
/// gives the time (a manual clock in tests) and removes the files.
struct RetentionPolicy: Equatable {
    var days: Int

    func expiredMedia(_ clips: [Clip], now: Date, leases: MediaLeases, recording: String? = nil) -> [Clip] {
        guard days > 0 else { return [] }
        let cutoff = now.addingTimeInterval(-Double(days) * 86_400)
        return clips.filter { clip in
            clip.hasMedia && clip.recordedAt < cutoff && !leases.isLeased(clip.mediaPath) && clip.mediaPath != recording
        }
    }
}
