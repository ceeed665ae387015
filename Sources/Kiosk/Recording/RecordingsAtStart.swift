import Durable
import Foundation
import Media
import Stage

/// The recordings folder as the kiosk finds it at start: a take a crash or power cut cut
/// short plays to its last fragment and is kept, a game attempt's is removed (it is void
/// and retried), and media past `[recording] retention_days` go (their JSON stays).
enum RecordingsAtStart {
    static func settle(_ service: RecordingService, now: Date = Date()) {
        let cutShort = settleIncompleteFiles(in: service.settings.folder)
        for file in cutShort.recovered { KioskLog.notice("recovered \(file), a take cut short by a crash or power cut") }
        for file in cutShort.removed { KioskLog.notice("removed \(file), a recording cut short by a crash") }
        for clip in service.stored.applyRetention(now: now) {
            KioskLog.notice("removed the media of \(clip.id), older than \(service.settings.retentionDays) days (its JSON stays)")
        }
    }

    /// What a crash or power cut left half-written in the folder (at start). A prompter
    /// take plays to its last fragment (the recorder writes fragmented MP4 for this): it
    /// becomes a take again under its own name, its JSON saying it was recovered, so
    /// the talent's read is not lost with the power. A game attempt cut short is void by
    /// the game's rules (the session restores it as interrupted, with a retry), and a
    /// file with no whole picture is nothing to keep: both are removed, as is the temp
    /// file of a metadata write cut before its rename (the take's JSON is the old one or none).
    static func settleIncompleteFiles(in folder: String) -> (recovered: [String], removed: [String]) {
        var recovered: [String] = [], removed: [String] = []
        removed += AtomicFile.removeLeftovers(in: URL(fileURLWithPath: folder)).map { folder + "/" + $0 }
        for file in Recorder.incompleteFiles(in: folder) {
            if let take = recoverTake(file, in: folder) { recovered.append(take) } else { unlink(file); removed.append(file) }
        }
        return (recovered, removed)
    }

    /// `.NAME.mp4.partial` of a prompter take with at least one picture becomes
    /// `NAME.mp4` and `NAME.json`; returns the new path, nil when it is not one.
    private static func recoverTake(_ partial: String, in folder: String) -> String? {
        let file = (partial as NSString).lastPathComponent
        guard file.hasPrefix("." + RecordingTake.Kind.prompter.rawValue + "-"), file.hasSuffix(".mp4.partial") else { return nil }
        let name = String(file.dropFirst().dropLast(".mp4.partial".count))
        guard let reader = try? MediaReader(path: partial), reader.firstStream(.video) != nil,
              let pictures = try? reader.packets(of: .video), let last = pictures.map(\.time).max() else { return nil }
        let sound = (try? reader.packets(of: .audio))?.map(\.time).max() ?? 0
        let media = folder + "/" + name + ".mp4"
        let metadata: [String: Any] = [
            "recording": ["path": media, "duration": max(last, sound), "videoFrames": pictures.count,
                          "stopMessage": Self.recoveredNote],
            "annotations": ["kind": RecordingTake.Kind.prompter.rawValue, "recovered": Self.recoveredNote],
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: metadata, options: [.sortedKeys]),
              (try? AtomicFile.write(data, to: URL(fileURLWithPath: folder + "/" + name + ".json"),
                                     access: .ownerOnly)) != nil,
              rename(partial, media) == 0 else { return nil }
        try? AtomicFile.syncDirectory(folder)
        return media
    }

    static let recoveredNote = "cut short by a crash or power cut; recovered up to its last fragment"
}
