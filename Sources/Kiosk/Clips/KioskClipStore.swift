import Foundation
import Stage

/// The stage's clips in the kiosk's recordings folder: the list the console shows (with
/// the sticks mounted now and the export folder as destinations), delete (a file a
/// replay or an export holds is refused), export to a folder, a game clip's derived
/// export made again. Every step of an export says so to the stage, which reads again.
final class KioskClipStore: ClipStorePort {
    private let service: RecordingService
    let exportFolder: String
    /// The game's recording port, for a derived export's retry (nil until it is made).
    var gameRecording: KioskGameRecording?
    /// The recordings changed by themselves (an export moved on, a stick ejected): the
    /// stage reads them again.
    var changed: () -> Void = {}
    private let ejector: StickEjector

    init(service: RecordingService, exportFolder: String, ejectSteps: StickEjector.Steps = StickEjector.system) {
        self.service = service
        self.exportFolder = exportFolder
        ejector = StickEjector(steps: ejectSteps, post: service.post)
        ejector.changed = { [weak self] in self?.changed() }
    }

    func listing(exporting: String?, currentGame: String?) -> ClipsInput {
        guard service.settings.enabled else { return .none }
        let clips = service.stored.clips().map(ClipListing.summary)
        let destinations = RemovableMounts.destinations(exportFolder: exportFolder)
        ejector.forgetIfMounted(destinations)
        let export = exporting.flatMap { service.stored.exports[$0] }.map(Self.progress)
        return ClipsInput(clips: clips, currentGame: currentGame, destinations: destinations, export: export,
                          eject: ejector.last)
    }

    func eject(_ name: String) -> Result<JSONValue, ClipRefusal> {
        let copying = service.stored.exports.values.filter { $0.state == .copying }.map(\.destination)
        return ejector.eject(name, among: RemovableMounts.destinations(exportFolder: exportFolder), copying: copying)
            .map { ["name": .string($0.name), "state": .string($0.state.rawValue)] }
    }

    var listJSON: JSONValue { .array(service.stored.clips().map(Self.json)) }

    func delete(_ id: String) -> Result<Void, ClipRefusal> {
        do {
            try service.stored.delete(id: id)
            return .success(())
        } catch {
            return .failure(ClipRefusal(error.description))
        }
    }

    func export(_ id: String, to folder: String) -> Result<JSONValue, ClipRefusal> {
        let box = LoopBound(self)
        do {
            // Both run on the loop (posted back by the copying thread).
            let started = try service.stored.export(id: id, to: folder, progress: { _ in
                box.value?.changed()
            }, done: { export in
                if export.state == .failed { KioskLog.warning("export of \(export.id) failed: \(export.error ?? "")") }
                box.value?.changed()
            })
            return .success(started.json)
        } catch {
            return .failure(ClipRefusal(error.description))
        }
    }

    func retryExport(_ id: String) -> Result<JSONValue, ClipRefusal> {
        guard let gameRecording else { return .failure(ClipRefusal("game recording is not running in this kiosk")) }
        do {
            return .success(Self.json(try gameRecording.retryExport(id: id)))
        } catch {
            return .failure(ClipRefusal(error.description))
        }
    }

    func refusal(replaying id: String) -> ClipRefusal {
        let clip = ClipFolder.clip(folder: service.settings.folder, id: id)
        return ClipRefusal((clip == nil ? RecordingError.noClip(id) : RecordingError.noMedia(id)).description)
    }

    /// An export as the console shows it: its error, or what it says when done.
    static func progress(_ export: ClipExport) -> ClipExportProgress {
        let state: ClipExportProgress.State = switch export.state {
        case .copying: .copying
        case .done: .done
        case .failed: .failed
        }
        return ClipExportProgress(id: export.id, destination: export.destination, state: state,
                                  fraction: export.fraction, message: export.state == .done ? export.message : export.error)
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
