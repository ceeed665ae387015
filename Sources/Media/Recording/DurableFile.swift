import Foundation

/// Crash-safe small files (the JSON beside a recording) and durable renames: a power
/// cut leaves the old state or the new one, never a torn file.
enum DurableFile {
    static func write(_ data: Data, to path: String) throws(MediaError) {
        let temp = path + ".\(getpid()).tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .posix(temp, "create") }
        let written = data.withUnsafeBytes { bytes -> Bool in
            var done = 0
            while done < bytes.count {
                guard let base = bytes.baseAddress else { return false }
                let n = Glibc.write(fd, base + done, bytes.count - done)
                if n < 0 { if errno == EINTR { continue } else { return false } }
                done += n
            }
            return true
        }
        let code = errno
        guard written, fsync(fd) == 0 else {
            close(fd)
            unlink(temp)
            throw .posix(temp, "write", written ? errno : code)
        }
        close(fd)
        try rename(temp, to: path)
    }

    /// Renames and makes the new directory entry durable.
    static func rename(_ from: String, to: String) throws(MediaError) {
        guard Glibc.rename(from, to) == 0 else {
            let code = errno
            unlink(from)
            throw .posix(to, "rename into place", code)
        }
        syncDirectory(of: to)
    }

    static func syncDirectory(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
