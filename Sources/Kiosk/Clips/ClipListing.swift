import Foundation
import Stage

/// A clip as the console lists it, from its `Clip` and the annotations of its JSON:
/// `kind`, `script_title` for takes; `player`, `card`, `rule`, `mode`, `verdict`,
/// `game` for game attempts; `export`, the file name of a derived export beside it
/// (the cue-burned or narrated version), which is what gets exported when present.
enum ClipListing {
    static func summary(_ clip: Clip) -> ClipSummary {
        let notes = annotations(of: clip)
        func note(_ key: String) -> String? { notes[key].flatMap { $0.isEmpty ? nil : $0 } }
        return ClipSummary(id: clip.id, kind: clip.kind, title: note("script_title") ?? clip.script, player: note("player"),
                           card: note("card"), rule: note("rule") ?? note("mode"), verdict: note("verdict"),
                           game: note("game"), duration: clip.duration, recordedAt: clip.recordedAt,
                           hasMedia: clip.hasMedia, cue: clip.cue,
                           exportFailure: note("export_state") == "failed" ? exportReason(clip) ?? "unknown error" : nil)
    }

    /// The reason a game clip's derived export failed, from its JSON's `export`.
    static func exportReason(_ clip: Clip) -> String? {
        guard let data = FileManager.default.contents(atPath: clip.metadataPath),
              let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let export = object["export"] as? [String: Any] else { return nil }
        return export["reason"] as? String
    }

    static func annotations(of clip: Clip) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: clip.metadataPath),
              let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let annotations = object["annotations"] as? [String: Any] else { return [:] }
        return annotations.compactMapValues { $0 as? String }
    }

    /// The file an export copies: the derived export when one exists beside the clip,
    /// else the recording itself.
    static func exportSource(_ clip: Clip) -> String {
        guard let name = annotations(of: clip)["export"], !name.isEmpty, !name.contains("/"), !name.hasPrefix(".")
        else { return clip.mediaPath }
        let path = (clip.mediaPath as NSString).deletingLastPathComponent + "/" + name
        return FileManager.default.fileExists(atPath: path) ? path : clip.mediaPath
    }
}
