import Foundation
import Stage

/// One recording in the recordings folder: its JSON metadata, and its media unless
/// retention (or a delete of the media only) removed them.
package struct Clip: Sendable, Equatable {
    /// The file name without extension: `prompter-20261201-081500-3`.
    var id: String
    var metadataPath: String
    var mediaPath: String
    var hasMedia: Bool
    /// When the take was written (its JSON's modification time).
    var recordedAt: Date
    var kind: String
    var duration: Double?
    var script: String?
    var bytes: UInt64
    /// Game attempts (`kind` "game"): who played what, the verdict and the session.
    var player: String? = nil
    var card: String? = nil
    var cardTitle: String? = nil
    var rule: String? = nil
    var mode: String? = nil
    var verdict: String? = nil
    var game: String? = nil
    var attempt: Int? = nil
    /// The derived export (cue burned in, or narration mixed in) and its state.
    var export: DerivedExportStatus? = nil
    /// A Visual S/Z attempt's stored cue (its letter and interval), which the replay shows.
    var cue: ClipCue? = nil
    /// The `export` annotation: the derived file's name beside the clip, once ready.
    var exportFile: String? = nil
    /// The host deleted the media (`media` annotation "deleted"); a file still there
    /// was held by a replay or an export when the kiosk stopped, and goes at start.
    var mediaDeleted = false

    /// The cue export to replay instead of the recording: ready and on disk.
    var cueExportPath: String? { export?.kind == .cue ? derivedPath : nil }

    /// The derived MP4 beside the clip, when its export is ready and the file exists.
    var derivedPath: String? {
        guard let export, export.state == .ready else { return nil }
        let path = (metadataPath as NSString).deletingLastPathComponent + "/" + export.file
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }
}


/// Reads the clips of a recordings folder, newest first.
package enum ClipFolder {
    static func clips(in folder: String) -> [Clip] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") && !$0.hasSuffix(".tmp") }
            .compactMap { clip(folder: folder, id: String($0.dropLast(".json".count))) }
            .sorted { ($0.recordedAt, $0.id) > ($1.recordedAt, $1.id) }
    }

    package static func clip(folder: String, id: String) -> Clip? {
        guard !id.isEmpty, !id.contains("/"), !id.hasPrefix(".") else { return nil }
        let metadataPath = folder + "/" + id + ".json"
        let mediaPath = folder + "/" + id + ".mp4"
        let manager = FileManager.default
        guard let attributes = try? manager.attributesOfItem(atPath: metadataPath) else { return nil }
        let recordedAt = attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0)
        let media = try? manager.attributesOfItem(atPath: mediaPath)
        var clip = Clip(id: id, metadataPath: metadataPath, mediaPath: mediaPath, hasMedia: media != nil,
                        recordedAt: recordedAt, kind: "unknown", duration: nil, script: nil,
                        bytes: (media?[.size] as? NSNumber)?.uint64Value ?? 0)
        if let data = manager.contents(atPath: metadataPath),
           let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] {
            let recording = object["recording"] as? [String: Any]
            let annotations = object["annotations"] as? [String: String]
            clip.duration = recording?["duration"] as? Double
            clip.kind = annotations?["kind"] ?? clip.kind
            clip.script = annotations?["script"]
            func text(_ key: String) -> String? { annotations?[key].flatMap { $0.isEmpty ? nil : $0 } }
            clip.player = text("player")
            clip.card = text("card")
            clip.cardTitle = text("card_title")
            clip.rule = text("rule")
            clip.mode = text("mode")
            clip.verdict = text("verdict")
            clip.game = text("game")
            clip.attempt = text("attempt").flatMap { Int($0) }
            clip.mediaDeleted = text("media") == "deleted"
            clip.exportFile = text("export").flatMap { $0.contains("/") || $0.hasPrefix(".") ? nil : $0 }
            if let export = object["export"], JSONSerialization.isValidJSONObject(export),
               let bytes = try? JSONSerialization.data(withJSONObject: export) {
                clip.export = try? JSONDecoder().decode(DerivedExportStatus.self, from: bytes)
            }
            if clip.kind == "game" { clip.cue = (try? JSONDecoder().decode(StoredAttempt.self, from: data))?.attempt.cue }
        }
        return clip
    }
}

/// A game clip's JSON read for its attempt alone (the recorder's part is not needed).
private struct StoredAttempt: Decodable {
    var attempt: GameClipAttempt
}
