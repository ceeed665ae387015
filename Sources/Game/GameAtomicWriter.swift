import Foundation

/// Why a crash-safe write failed: the path, the step and the system's reason.
public struct AtomicWriteError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var step: String
    public var reason: String

    public var description: String { "Could not save \(path) (\(step)): \(reason)" }

    static func posix(_ path: String, _ step: String, _ code: Int32 = errno) -> AtomicWriteError {
        AtomicWriteError(path: path, step: step, reason: String(cString: strerror(code)))
    }
}

/// Game's own crash-safe writer (Game imports nothing of Prompter): a temp file in the
/// same directory, fsync, rename over the old file, fsync the directory. A kill at any
/// point leaves the old file or the new one, never a torn mix; at worst a hidden
/// `.<name>.<pid>.<n>.tmp` remains, which readers never open and `removeLeftovers`
/// deletes.
public enum GameAtomicWriter {
    public static func write(_ data: Data, to url: URL) throws(AtomicWriteError) {
        let directory = url.deletingLastPathComponent().path
        let temp = tempPath(for: url)
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .posix(temp, "create temporary file") }
        do throws(AtomicWriteError) {
            try writeAll(data, to: fd, path: temp)
            guard fsync(fd) == 0 else { throw AtomicWriteError.posix(temp, "fsync") }
        } catch {
            close(fd)
            unlink(temp)
            throw error
        }
        guard close(fd) == 0 else {
            let code = errno
            unlink(temp)
            throw .posix(temp, "close", code)
        }
        guard rename(temp, url.path) == 0 else {
            let code = errno
            unlink(temp)
            throw .posix(url.path, "rename into place", code)
        }
        let dirFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dirFD >= 0 else { throw .posix(directory, "open directory") }
        defer { close(dirFD) }
        guard fsync(dirFD) == 0 else { throw .posix(directory, "fsync directory") }
    }

    /// A fresh temp path next to `url`: hidden, unique per process and call.
    static func tempPath(for url: URL) -> String {
        url.deletingLastPathComponent().path + "/." + url.lastPathComponent
            + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    }

    /// Deletes temp files of `url` that a killed writer left (its process is gone).
    @discardableResult
    public static func removeLeftovers(of url: URL) -> [String] {
        let directory = url.deletingLastPathComponent()
        let prefix = "." + url.lastPathComponent + "."
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var removed: [String] = []
        for name in names.sorted() where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let parts = name.dropFirst(prefix.count).split(separator: ".")
            guard parts.count == 3, let pid = Int32(parts[0]), pid > 0 else { continue }
            if pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH { continue }
            if unlink(directory.appendingPathComponent(name).path) == 0 { removed.append(name) }
        }
        return removed
    }

    private static func writeAll(_ data: Data, to fd: Int32, path: String) throws(AtomicWriteError) {
        var failure: AtomicWriteError?
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard let base = buffer.baseAddress else { return }
            var written = 0
            while written < buffer.count {
                let n = Glibc.write(fd, base + written, buffer.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = .posix(path, "write")
                    return
                }
                written += n
            }
        }
        if let failure { throw failure }
    }
}
