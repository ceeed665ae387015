import Foundation

/// Why an atomic write failed: the path, the step and the system's reason.
public struct AtomicFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var step: String
    public var reason: String

    public var description: String { "Could not save \(path) (\(step)): \(reason)" }

    public init(path: String, step: String, reason: String) {
        self.path = path
        self.step = step
        self.reason = reason
    }

    static func posix(_ path: String, _ step: String, _ code: Int32 = errno) -> AtomicFileError {
        AtomicFileError(path: path, step: step, reason: String(cString: strerror(code)))
    }
}

/// Writes state so that a power cut leaves either the old file or the new one, never
/// a torn mix: temp file in the same directory, fsync, rename over, fsync the directory
/// (the rename is only durable once the directory entry is on disk). The one writer of
/// every module that keeps state (Prompter, Game, Stage, Kiosk); a module of its own so
/// Game needs nothing of Prompter for it. A kill at any point leaves at worst a hidden
/// `.<name>.<pid>.<n>.tmp`, which readers never open and `removeLeftovers` deletes.
public enum AtomicFile {
    /// Who may read a file written here.
    public enum Access: Sendable, Equatable {
        /// A document the user edits (a script): keeps the mode the file has, 0644
        /// (less the umask) when it is new.
        case document
        /// Files of people (recordings, their JSON) and the kiosk's state: 0600, whatever
        /// the umask or the mode an older file had. The temp file is private from its
        /// creation, before a byte is written, so the data is never readable by others.
        case ownerOnly
    }

    /// The mode of files of people and state, and of their folders.
    public static let ownerOnlyFileMode: mode_t = 0o600
    public static let ownerOnlyFolderMode: mode_t = 0o700

    public static func write(_ data: Data, to url: URL, access: Access = .document) throws(AtomicFileError) {
        let target = url.path
        let directory = url.deletingLastPathComponent().path
        // Hidden and unlisted (not .txt/.md), unique per process and call.
        let temp = directory + "/." + url.lastPathComponent + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let mode = access == .ownerOnly ? ownerOnlyFileMode : existingMode(of: target) ?? 0o644
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .posix(temp, "create temporary file") }
        do throws(AtomicFileError) {
            // The umask only takes bits away; this makes the mode exactly 0600.
            if access == .ownerOnly && fchmod(fd, ownerOnlyFileMode) != 0 { throw AtomicFileError.posix(temp, "fchmod") }
            try writeAll(data, to: fd, path: temp)
            guard fsync(fd) == 0 else { throw AtomicFileError.posix(temp, "fsync") }
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
        guard Glibc.rename(temp, target) == 0 else {
            let code = errno
            unlink(temp)
            throw .posix(target, "rename into place", code)
        }
        try syncDirectory(directory)
    }

    /// Renames `from` over `to` and makes the new entry durable: a finished recording
    /// or export moving into place. On failure `from` stays where it was (a recording
    /// kept there is recovered at the next start; nothing is deleted here). Once the
    /// rename is done it counts as done: a folder that cannot be synced only puts the
    /// new name at risk in a power cut, and the file is whole under either name.
    public static func rename(_ from: String, to: String) throws(AtomicFileError) {
        guard Glibc.rename(from, to) == 0 else { throw .posix(to, "rename into place") }
        let folder = (to as NSString).deletingLastPathComponent
        try? syncDirectory(folder.isEmpty ? "." : folder)
    }

    /// Deletes temp files a killed writer left in `directory` (a power cut or SIGKILL
    /// between create and rename). A temp file of a process still running is kept: it
    /// may be mid-write. Returns the names removed.
    @discardableResult
    public static func removeLeftovers(in directory: URL) -> [String] {
        removeLeftovers(in: directory, named: ".")
    }

    /// Deletes the temp files of `url` alone that a killed writer left (its process is gone).
    @discardableResult
    public static func removeLeftovers(of url: URL) -> [String] {
        removeLeftovers(in: url.deletingLastPathComponent(), named: "." + url.lastPathComponent + ".")
    }

    private static func removeLeftovers(in directory: URL, named prefix: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var removed: [String] = []
        for name in names.sorted() where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let parts = name.split(separator: ".")
            // ".<file>.<pid>.<random>.tmp": the pid is third from the end.
            guard parts.count >= 4, let pid = Int32(parts[parts.count - 3]), pid > 0 else { continue }
            if pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH { continue }
            if unlink(directory.appendingPathComponent(name).path) == 0 { removed.append(name) }
        }
        return removed
    }

    /// Creates `directory` and any missing parents 0700 whatever the umask (folders of
    /// recordings and state). A folder already there keeps its mode: the operator or
    /// systemd's StateDirectoryMode= chose it.
    public static func createOwnerOnlyFolder(_ directory: String) throws(AtomicFileError) {
        var info = stat()
        if stat(directory, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { return }
            throw .posix(directory, "create folder", ENOTDIR)
        }
        let parent = (directory as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != directory { try createOwnerOnlyFolder(parent) }
        if mkdir(directory, ownerOnlyFolderMode) != 0 {
            let code = errno
            // Made meanwhile by another thread or process: theirs to set.
            if code == EEXIST, stat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return }
            throw .posix(directory, "create folder", code)
        }
        guard chmod(directory, ownerOnlyFolderMode) == 0 else { throw .posix(directory, "chmod") }
    }

    public static func createOwnerOnlyFolder(_ directory: URL) throws(AtomicFileError) {
        try createOwnerOnlyFolder(directory.path)
    }

    /// Makes a rename, create or unlink in `directory` durable.
    public static func syncDirectory(_ directory: String) throws(AtomicFileError) {
        let dirFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dirFD >= 0 else { throw .posix(directory, "open directory") }
        defer { close(dirFD) }
        guard fsync(dirFD) == 0 else { throw .posix(directory, "fsync directory") }
    }

    private static func writeAll(_ data: Data, to fd: Int32, path: String) throws(AtomicFileError) {
        var failure: AtomicFileError?
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

    private static func existingMode(of path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }
}
