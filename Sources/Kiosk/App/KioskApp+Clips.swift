import Foundation
import Stage

/// `rig ctl clips list|export|delete|retry`: the recordings folder for automation.
/// Delete asks nothing here (the console will confirm); leased clips are refused.
/// Export copies a game clip's derived file; retry makes a failed one again.
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
        case "retry":
            guard let gameRecording else { return .failure("game recording is not running in this kiosk") }
            do {
                let status = try gameRecording.retryExport(id: id ?? "")
                return .success(["id": .optional(id), "export": Self.json(status)])
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
            return .failure("clips takes list, export, delete, replay, retry or stop")
        }
    }

    static func json(_ clip: Clip) -> JSONValue {
        let formatter = ISO8601DateFormatter()
        var fields: [String: JSONValue] = [
            "id": .string(clip.id), "kind": .string(clip.kind), "file": .string(clip.mediaPath),
            "has_media": .bool(clip.hasMedia), "bytes": .number(Double(clip.bytes)),
            "duration": clip.duration.map { .number($0) } ?? .null, "script": .optional(clip.script),
            "recorded_at": .string(formatter.string(from: clip.recordedAt))]
        if clip.kind == "game" {
            fields["player"] = .optional(clip.player)
            fields["card"] = .optional(clip.card)
            fields["card_title"] = .optional(clip.cardTitle)
            fields["rule"] = .optional(clip.rule)
            fields["mode"] = .optional(clip.mode)
            fields["verdict"] = .optional(clip.verdict)
            fields["game"] = .optional(clip.game)
            fields["attempt"] = clip.attempt.map { .int($0) } ?? .null
            fields["export"] = clip.export.map(json) ?? .null
            fields["derived_file"] = .optional(clip.derivedPath)
        }
        return .object(fields)
    }

    static func json(_ export: DerivedExportStatus) -> JSONValue {
        ["kind": .string(export.kind.rawValue), "state": .string(export.state.rawValue), "file": .string(export.file),
         "reason": .optional(export.reason)]
    }
}
