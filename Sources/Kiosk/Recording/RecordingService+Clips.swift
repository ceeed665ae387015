import Foundation
import Stage

/// The recordings folder as clips: retention at start, delete, export to a folder.
/// Every removal checks the leases and the take being written first.
extension RecordingService {
    func clips() -> [Clip] { ClipFolder.clips(in: settings.folder) }

    /// At start: removes the media of clips older than the retention period (their
    /// JSON stays). Returns the clips whose media went.
    @discardableResult
    func applyRetention(now: Date) -> [Clip] {
        let expired = RetentionPolicy(days: settings.retentionDays)
            .expiredMedia(clips(), now: now, leases: leases, recording: currentMediaPath)
        for clip in expired { unlink(clip.mediaPath) }
        return expired
    }

    /// Removes a clip, media and JSON; refused while it is exported or replayed.
    func delete(id: String) throws(RecordingError) {
        guard let clip = ClipFolder.clip(folder: settings.folder, id: id) else { throw .noClip(id) }
        guard clip.mediaPath != currentMediaPath else { throw .clipInUse(id, ["recording"]) }
        let users = leases.purposes(of: clip.mediaPath)
        guard users.isEmpty else { throw .clipInUse(id, users) }
        unlink(clip.mediaPath)
        unlink(clip.metadataPath)
    }

    /// Starts copying a clip's media and JSON into `folder`; `done` runs on the loop,
    /// as does `progress` (at most every 4 MB). The media are leased until the copy
    /// ends. A clip with a derived export beside it (`ClipListing.exportSource`)
    /// exports that file instead of the raw recording.
    func export(id: String, to folder: String, progress: @escaping @Sendable (ClipExport) -> Void = { _ in },
                done: @escaping @Sendable (ClipExport) -> Void = { _ in }) throws(RecordingError) -> ClipExport {
        guard let clip = ClipFolder.clip(folder: settings.folder, id: id) else { throw .noClip(id) }
        guard clip.hasMedia else { throw .noMedia(id) }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw .folder(path: folder, reason: "no such folder (is the stick mounted?)")
        }
        if exports[id]?.state == .copying { throw .clipInUse(id, ["export"]) }
        let source = ClipListing.exportSource(clip)
        let lease = leases.acquire(clip.mediaPath, for: "export")
        let derivedLease = source == clip.mediaPath ? nil : leases.acquire(source, for: "export")
        let target = folder + "/" + (source == clip.mediaPath ? id + ".mp4" : (source as NSString).lastPathComponent)
        let started = ClipExport(id: id, destination: target, state: .copying, fraction: 0)
        exports[id] = started
        let box = LoopBound(self)
        let post = post
        let thread = Thread {
            var result = started
            do throws(RecordingError) {
                var reported: UInt64 = 0
                try ClipExport.copy(source, to: target) { copied, total in
                    guard total > 0, copied - reported >= 4 << 20 || copied == total else { return }
                    reported = copied
                    var step = started
                    step.fraction = Double(copied) / Double(total)
                    let current = step
                    post {
                        guard let service = box.value, service.exports[id]?.state == .copying else { return }
                        service.exports[id] = current
                        progress(current)
                    }
                }
                try ClipExport.copy(clip.metadataPath, to: folder + "/" + id + ".json")
                result.state = .done
                result.fraction = 1
            } catch {
                result.state = .failed
                result.error = error.description
            }
            let finished = result
            post {
                guard let service = box.value else { return }
                service.leases.release(lease)
                if let derivedLease { service.leases.release(derivedLease) }
                service.exports[id] = finished
                done(finished)
            }
        }
        thread.name = "rig-clip-export"
        thread.start()
        return started
    }
}

/// A loop-owned object carried through a closure that another thread posts back to
/// the loop; only touched there, hence the unchecked Sendable.
final class LoopBound<Value: AnyObject>: @unchecked Sendable {
    weak var value: Value?
    init(_ value: Value) { self.value = value }
}
