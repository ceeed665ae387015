import Foundation
import Stage

/// `rig ctl clips list|export|delete`: the recordings folder for automation. Delete
/// asks nothing here (the console will confirm); leased clips are refused.
extension KioskApp {
    func clips(action: String, id: String?, to destination: String?) -> ControlReply {
        guard let recording else { return .failure(RecordingError.disabled.description) }
        switch action {
        case "list":
            return .success(["clips": .array(recording.clips().map(Self.json))])
        case "export":
            let folder = destination ?? config.recording.exportFolder
            guard !folder.isEmpty else {
                return .failure("clips export needs a folder: --to FOLDER, or [recording] export_folder in rig.toml")
            }
            do {
                let started = try recording.export(id: id ?? "", to: folder) { export in
                    if export.state == .failed { KioskLog.warning("export of \(export.id) failed: \(export.error ?? "")") }
                }
                return .success(["export": started.json])
            } catch {
                return .failure(error.description)
            }
        case "delete":
            do {
                try recording.delete(id: id ?? "")
                KioskLog.notice("deleted clip \(id ?? "") on request")
                return .success(["deleted": .optional(id)])
            } catch {
                return .failure(error.description)
            }
        case "replay":
            // As the operator would: the Clips screen, the clip selected, Replay.
            refreshClips()
            guard let clip = stage.clips.clips.first(where: { $0.id == id }) else {
                return .failure(RecordingError.noClip(id ?? "").description)
            }
            guard clip.hasMedia else { return .failure(RecordingError.noMedia(clip.id).description) }
            stage.console.show(.clips)
            stage.console.update { $0.clipList = .allSaved; $0.selectedClip = clip.id }
            stage.openReplay(clip)
            return .success(["replay": .string(clip.id)])
        case "stop":
            stage.closeReplay()
            return .success()
        default:
            return .failure("clips takes list, export, delete, replay or stop")
        }
    }

    static func json(_ clip: Clip) -> JSONValue {
        let formatter = ISO8601DateFormatter()
        return ["id": .string(clip.id), "kind": .string(clip.kind), "file": .string(clip.mediaPath),
                "has_media": .bool(clip.hasMedia), "bytes": .number(Double(clip.bytes)),
                "duration": clip.duration.map { .number($0) } ?? .null, "script": .optional(clip.script),
                "recorded_at": .string(formatter.string(from: clip.recordedAt))]
    }
}
