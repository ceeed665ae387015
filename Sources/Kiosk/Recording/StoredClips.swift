import Foundation
import Stage

/// The recordings folder as clips: the list, retention, delete, and export to a
/// folder (a USB stick) on a thread of its own. Every removal checks the leases (an
/// export, a replay) and the file being recorded first. Lives on the loop.
final class StoredClips {
    let folder: String
    let retentionDays: Int
    /// Clips in use (exports, replays): never deleted under their user.
    var leases = MediaLeases()
    /// The latest export of each clip, for `status`.
    private(set) var exports: [String: ClipExport] = [:]
    /// A game clip's metadata as the game's port last wrote it (by JSON path).
    var gameMetadata: ((String) -> GameClipMetadata?)?
    /// The media file being recorded now, if any.
    var recording: () -> String? = { nil }
    private let post: @Sendable (@escaping @Sendable () -> Void) -> Void

    init(folder: String, retentionDays: Int, post: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.folder = folder
        self.retentionDays = retentionDays
        self.post = post
    }

    func clips() -> [Clip] { ClipFolder.clips(in: folder) }

    /// At start: removes the media of clips older than the retention period (their
    /// JSON stays). Returns the clips whose media went.
    @discardableResult
    func applyRetention(now: Date) -> [Clip] {
        let expired = RetentionPolicy(days: retentionDays)
            .expiredMedia(clips(), now: now, leases: leases, recording: recording())
        for clip in expired {
            for file in [clip.mediaPath] + Self.derivedFiles(of: clip) where !leases.isLeased(file) { unlink(file) }
        }
        // A deletion the host asked for that waited on a lease when the kiosk stopped.
        for clip in clips() where clip.mediaDeleted {
            for file in [clip.mediaPath] + Self.derivedFiles(of: clip) where !leases.isLeased(file) { unlink(file) }
        }
        return expired
    }

    /// Removes a clip, media and JSON; refused while it is exported or replayed.
    func delete(id: String) throws(RecordingError) {
        guard let clip = ClipFolder.clip(folder: folder, id: id) else { throw .noClip(id) }
        guard clip.mediaPath != recording() else { throw .clipInUse(id, ["recording"]) }
        let users = leases.purposes(of: clip.mediaPath)
        guard users.isEmpty else { throw .clipInUse(id, users) }
        let derived = Self.derivedFiles(of: clip)
        if let leased = derived.first(where: leases.isLeased) { throw .clipInUse(id, leases.purposes(of: leased)) }
        for file in [clip.mediaPath] + derived { unlink(file) }
        unlink(clip.metadataPath)
    }

    /// A file's size in bytes (0 when it cannot be read: the copy then says why).
    static func size(of path: String) -> UInt64 {
        var status = stat()
        return stat(path, &status) == 0 ? UInt64(max(0, status.st_size)) : 0
    }

    /// A game clip's derived exports beside it (`ID.cue.mp4`, `ID.narrated.mp4`).
    static func derivedFiles(of clip: Clip) -> [String] {
        let base = String(clip.metadataPath.dropLast(".json".count))
        return DerivedExportStatus.Kind.allCases.map { base + "." + $0.rawValue + ".mp4" }
    }

    /// What an export copies for a clip: the derived file when there is one; for a
    /// Visual S/Z attempt never the raw clip (refused with the reason while its cue
    /// export is pending or failed); a narrated export still pending is waited for,
    /// a failed one leaves the original (the speech is in the room sound too).
    func exportSource(_ clip: Clip) throws(RecordingError) -> (path: String, name: String, note: String?) {
        guard clip.kind == "game" else { return (clip.mediaPath, clip.id + ".mp4", nil) }
        var clip = clip
        // The game's port knows a state its writer thread may not have saved yet.
        if let known = gameMetadata?(clip.metadataPath) { clip.export = known.export }
        let visual = clip.mode == "visual"
        guard let export = clip.export else {
            // Only the annotation names a derived file (written by other tools): that file.
            let folder = (clip.metadataPath as NSString).deletingLastPathComponent
            if let name = clip.exportFile, FileManager.default.fileExists(atPath: folder + "/" + name) {
                return (folder + "/" + name, name, nil)
            }
            if visual { throw .exportNotReady(clip.id, "its cue export is made once the host has judged the attempt") }
            return (clip.mediaPath, clip.id + ".mp4", nil)
        }
        switch export.state {
        case .ready:
            guard let derived = clip.derivedPath else {
                throw .exportNotReady(clip.id, "its \(export.kind.rawValue) export \(export.file) is missing; "
                                      + "rig ctl clips retry \(clip.id)")
            }
            return (derived, export.file, nil)
        case .pending:
            throw .exportNotReady(clip.id, "its \(export.kind.rawValue) export is still being made; try again shortly")
        case .failed where visual || export.kind == .cue:
            throw .exportNotReady(clip.id, "its cue export failed (\(export.reason ?? "no reason given")); "
                                  + "rig ctl clips retry \(clip.id) makes it again")
        case .failed:
            return (clip.mediaPath, clip.id + ".mp4",
                    "the narrated export failed (\(export.reason ?? "no reason given")); the original was copied")
        }
    }

    /// Starts copying a clip's media and JSON into `destination` (a folder); `done` runs on the loop,
    /// as does `progress` (at most every 4 MB). The media are leased until the copy
    /// ends. A game clip exports its derived file (`exportSource`): never the raw
    /// recording of a Visual S/Z attempt.
    func export(id: String, to destination: String, progress: @escaping @Sendable (ClipExport) -> Void = { _ in },
                done: @escaping @Sendable (ClipExport) -> Void = { _ in }) throws(RecordingError) -> ClipExport {
        guard let clip = ClipFolder.clip(folder: folder, id: id) else { throw .noClip(id) }
        guard clip.hasMedia else { throw .noMedia(id) }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: destination, isDirectory: &isFolder), isFolder.boolValue else {
            throw .folder(path: destination, reason: "no such folder (is the stick mounted?)")
        }
        if exports[id]?.state == .copying { throw .clipInUse(id, ["export"]) }
        let source = try exportSource(clip)
        // A write-protected or full stick is refused before a byte is copied.
        let needs = Self.size(of: source.path) + Self.size(of: clip.metadataPath)
        if let refusal = ExportDestinationCheck.refusal(folder: destination, needs: needs) { throw refusal }
        let lease = leases.acquire(clip.mediaPath, for: "export")
        let derivedLease = source.path == clip.mediaPath ? nil : leases.acquire(source.path, for: "export")
        let target = destination + "/" + source.name
        var starting = ClipExport(id: id, destination: target, state: .copying, fraction: 0)
        starting.note = source.note
        let started = starting
        exports[id] = started
        let box = LoopBound(self)
        let post = post
        let thread = Thread {
            var result = started
            do throws(RecordingError) {
                var reported: UInt64 = 0
                try ClipExport.copy(source.path, to: target) { copied, total in
                    guard total > 0, copied - reported >= 4 << 20 || copied == total else { return }
                    reported = copied
                    var step = started
                    step.fraction = Double(copied) / Double(total)
                    let current = step
                    post {
                        guard let stored = box.value, stored.exports[id]?.state == .copying else { return }
                        stored.exports[id] = current
                        progress(current)
                    }
                }
                try ClipExport.copy(clip.metadataPath, to: destination + "/" + id + ".json")
                result.state = .done
                result.fraction = 1
                result.message = ClipExport.doneMessage(destination: target, sticks: RemovableMounts.parse(
                    (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""))
            } catch {
                result.state = .failed
                result.error = error.description
            }
            let finished = result
            post {
                guard let stored = box.value else { return }
                stored.leases.release(lease)
                if let derivedLease { stored.leases.release(derivedLease) }
                stored.exports[id] = finished
                done(finished)
            }
        }
        thread.name = "rig-clip-export"
        thread.start()
        return started
    }
}
