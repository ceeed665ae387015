import Foundation
import Game
import Media
import Stage

/// The game clips' files: metadata following the verdict history, the media of
/// discarded and deleted attempts removed (never under a lease), and the derived
/// export started once the host has judged.
extension KioskGameRecording {
    func discard(attempt: Int) {
        if let running, running.attempt == attempt {
            cancel(generation: running.generation)
        }
        // A file finalized just as the attempt was interrupted.
        for (path, clip) in metadata where clip.attempt.id == attempt && clip.attempt.game == game?.sessionID {
            removeMedia(path, keepJSON: false)
        }
    }

    /// The host deleted the attempt's video: media and derived export go, the JSON with
    /// the result stays.
    func delete(attempt: Int, file: String) {
        let json = jsonPath(of: file)
        removeMedia(json, keepJSON: true)
        guard var clip = metadata[json] ?? GameClipMetadata.read(json) else { return }
        clip.export = nil
        clip.annotations["media"] = "deleted"
        clip.refreshAnnotations()
        write(clip)
    }

    /// What holds the attempt's MP4 or its derived exports now (a replay, an export copy).
    func mediaInUse(_ file: String) -> [String] {
        let json = jsonPath(of: file)
        let files = [mediaPath(of: json), derivedPath(of: json, kind: .cue), derivedPath(of: json, kind: .narrated)]
        return Array(Set(files.flatMap(service.stored.leases.purposes))).sorted()
    }

    /// Removes a clip's MP4 and derived exports (and its JSON unless `keepJSON`). A file
    /// leased to a copy or replay is removed when the lease is given back.
    func removeMedia(_ json: String, keepJSON: Bool) {
        let files = [mediaPath(of: json), derivedPath(of: json, kind: .cue), derivedPath(of: json, kind: .narrated)]
        for file in files where FileManager.default.fileExists(atPath: file) {
            if service.stored.leases.isLeased(file) { removeWhenFree(file) } else { unlink(file) }
        }
        if !keepJSON {
            MetadataWriter.shared.remove(json)
            metadata[json] = nil
        }
    }

    private func removeWhenFree(_ file: String) {
        guard pendingRemovals.insert(file).inserted else { return }
        checkRemoval(of: file)
    }

    /// A method, not a nested function: a nested one captures `self` strongly, so the
    /// timer waiting on a lease kept the port alive despite its `[weak self]`
    /// (AddressSanitizer's leak report in GameMediaDeletionTests).
    private func checkRemoval(of file: String) {
        schedule(clock() + 1) { [weak self] in
            guard let self else { return }
            if service.stored.leases.isLeased(file) { return checkRemoval(of: file) }
            pendingRemovals.remove(file)
            unlink(file)
        }
    }

    /// Follows verdicts and corrections into the clips' JSON; the first host verdict
    /// of a recorded attempt starts its derived export.
    func sessionChanged(_ session: GameSession, id: String) {
        for record in session.attempts {
            guard case .saved(let file) = record.media else { continue }
            let json = jsonPath(of: file)
            guard var clip = metadata[json] ?? load(json) else { continue }
            guard clip.attempt.verdicts != record.verdicts else { continue }
            clip.attempt.verdicts = record.verdicts
            clip.attempt.verdict = record.verdict?.rawValue
            clip.refreshAnnotations()
            if clip.export == nil, record.verdicts.contains(where: { $0.by == .host }) {
                clip.export = plannedExport(for: clip, json: json)
                clip.refreshAnnotations()
            }
            write(clip)
            if clip.export?.state == .pending { runExport(json) }
        }
    }

    private func load(_ json: String) -> GameClipMetadata? {
        guard !unreadable.contains(json) else { return nil }
        guard let clip = GameClipMetadata.read(json) else {
            unreadable.insert(json)
            return nil
        }
        metadata[json] = clip
        return clip
    }

    /// Visual S/Z gets the cue burned in; spoken play the narration mixed in, unless the
    /// file has no sound to mix it into (picture only): then none is offered.
    func plannedExport(for clip: GameClipMetadata, json: String) -> DerivedExportStatus? {
        let kind: DerivedExportStatus.Kind = clip.attempt.mode == GameMode.visual.rawValue ? .cue : .narrated
        if kind == .narrated, clip.attempt.timeline.audio == "none" { return nil }
        return DerivedExportStatus(kind: kind, state: .pending,
                                   file: (derivedPath(of: json, kind: kind) as NSString).lastPathComponent)
    }

    /// Writes the metadata crash-safely off the loop (one writer thread, in order).
    func write(_ clip: GameClipMetadata) {
        let json = jsonPath(of: clip.recording.path)
        metadata[json] = clip
        unreadable.remove(json)
        do {
            let data = try clip.encoded()
            MetadataWriter.shared.write(data, to: json)
        } catch {
            KioskLog.warning("game clip \(json): \(error)")
        }
    }
}

/// The one thread that writes clip metadata (fsync and rename take milliseconds the loop
/// does not wait for). Writes happen in the order given; the last one wins.
final class MetadataWriter: Sendable {
    static let shared = MetadataWriter()
    private let queue = DispatchQueue(label: "rig-clip-metadata")

    func write(_ data: Data, to path: String) {
        queue.async {
            do throws(RecordingError) {
                try GameClipMetadata.write(data, to: path)
            } catch {
                KioskLog.warning("game clip metadata: \(error)")
            }
        }
    }

    /// Removes the file after the writes before it, so none of them brings it back.
    func remove(_ path: String) {
        queue.async { unlink(path) }
    }

    /// Waits until every write asked for so far is done (tests, shutdown).
    func flush() { queue.sync {} }
}
