import Foundation

/// One recording in the recordings folder: its JSON metadata, and its media unless
/// retention (or a delete of the media only) removed them.
struct Clip: Sendable, Equatable {
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

}


/// Reads the clips of a recordings folder, newest first.
enum ClipFolder {
    static func clips(in folder: String) -> [Clip] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") && !$0.hasSuffix(".tmp") }
            .compactMap { clip(folder: folder, id: String($0.dropLast(".json".count))) }
            .sorted { ($0.recordedAt, $0.id) > ($1.recordedAt, $1.id) }
    }

    static func clip(folder: String, id: String) -> Clip? {
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
        }
        return clip
    }
}
