import Durable
import Foundation

/// Media's crash-safe files through Durable's one writer (temp file, fsync, rename,
/// fsync of the folder): the JSON beside a recording, a recording or export moving
/// into place. Everything written here is of people: 0600 whatever the umask.
/// Failures come back as `MediaError.file` with the path and the step.
enum DurableFile {
    static func write(_ data: Data, to path: String) throws(MediaError) {
        do { try AtomicFile.write(data, to: URL(fileURLWithPath: path), access: .ownerOnly) } catch { throw MediaError(error) }
    }

    static func rename(_ from: String, to: String) throws(MediaError) {
        do { try AtomicFile.rename(from, to: to) } catch { throw MediaError(error) }
    }

    /// After an unlink: a failure here only means the deletion may not survive a power cut.
    static func syncDirectory(of path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        try? AtomicFile.syncDirectory(folder.isEmpty ? "." : folder)
    }
}

extension MediaError {
    init(_ error: AtomicFileError) {
        self = .file(path: error.path, step: error.step, reason: error.reason)
    }
}
