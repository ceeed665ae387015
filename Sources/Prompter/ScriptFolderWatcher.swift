import Foundation

/// Notices changes made to the library from outside (a USB stick, scp, an editor) with
/// inotify. The kiosk's poll loop waits on `fileDescriptor` together with its devices
/// and calls `drain()` when it is readable; a true result means: refresh the library.
///
/// Watches the root and each folder (the library is one level deep). Folders created
/// later are added as their events arrive. Owns the inotify descriptor.
public final class ScriptFolderWatcher {
    public enum WatchError: Error, Equatable, CustomStringConvertible {
        case initFailed(reason: String)
        case watchFailed(path: String, reason: String)

        public var description: String {
            switch self {
            case .initFailed(let reason): return "Cannot watch the script library for changes: \(reason)."
            case .watchFailed(let path, let reason): return "Cannot watch \(path) for changes: \(reason)."
            }
        }
    }

    /// Readable (POLLIN) when events are waiting. Non-blocking, close-on-exec.
    public let fileDescriptor: Int32
    public let root: URL
    private var watches: [Int32: String] = [:]   // descriptor → folder name ("" = root)

    /// Everything that changes what a listing shows or what a script says.
    private static let mask: UInt32 = UInt32(IN_CLOSE_WRITE) | UInt32(IN_CREATE) | UInt32(IN_DELETE)
        | UInt32(IN_MOVED_FROM) | UInt32(IN_MOVED_TO) | UInt32(IN_MODIFY) | UInt32(IN_ATTRIB)
        | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_ONLYDIR)

    public init(root: URL) throws(WatchError) {
        self.root = root.standardizedFileURL
        let fd = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard fd >= 0 else { throw .initFailed(reason: String(cString: strerror(errno))) }
        fileDescriptor = fd
        // No close here on failure: every stored property is set, so deinit runs when
        // this init throws and closes the descriptor; closing it here too would close
        // whatever another thread opened under the same number meanwhile.
        try addWatch(folder: "")
        for folder in Self.subdirectories(of: self.root) {
            try? addWatch(folder: folder)
        }
    }

    deinit {
        close(fileDescriptor)
    }

    /// Reads every pending event without blocking. Returns true when anything in the
    /// library changed (including a queue overflow, which means "assume everything").
    public func drain() -> Bool {
        var changed = false
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(fileDescriptor, buffer, capacity)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            changed = handleEvents(UnsafeRawBufferPointer(start: buffer, count: count)) || changed
        }
        return changed
    }

    /// Folders being watched, "" for the root (for tests and diagnostics).
    public var watchedFolders: [String] {
        watches.values.sorted()
    }

    private func handleEvents(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var changed = false
        var position = 0
        // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }
        let headerSize = 16
        while position + headerSize <= bytes.count {
            let wd = bytes.loadUnaligned(fromByteOffset: position, as: Int32.self)
            let mask = bytes.loadUnaligned(fromByteOffset: position + 4, as: UInt32.self)
            let length = Int(bytes.loadUnaligned(fromByteOffset: position + 12, as: UInt32.self))
            let nameBytes = bytes[(position + headerSize)..<min(bytes.count, position + headerSize + length)]
            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
            position += headerSize + length
            changed = handle(wd: wd, mask: mask, name: name) || changed
        }
        return changed
    }

    private func handle(wd: Int32, mask: UInt32, name: String) -> Bool {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            rewatchFolders()
            return true
        }
        if mask & UInt32(IN_IGNORED) != 0 {
            watches[wd] = nil
            return false
        }
        guard let folder = watches[wd] else { return false }
        let isDirectory = mask & UInt32(IN_ISDIR) != 0
        if folder.isEmpty, isDirectory, mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0, !name.hasPrefix(".") {
            try? addWatch(folder: name)
            return true
        }
        if isDirectory { return folder.isEmpty }
        // Temp files of atomic saves (".x.tmp") are hidden: their rename shows as MOVED_TO.
        // Hidden files are not scripts, except an import cache: its arrival means a
        // conversion finished. (The importer's `finished` is what the kiosk waits for:
        // the cache is written before the text is read for prompting.)
        if name.hasPrefix("."), !name.hasSuffix(ScriptImportCache.suffix) { return false }
        if mask & (UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)) != 0 { return true }
        let ext = (name as NSString).pathExtension
        return name.isEmpty || ScriptFormat(fileExtension: ext) != nil || ScriptImportKind(fileExtension: ext) != nil
            || name.hasSuffix(ScriptImportCache.suffix)
    }

    private func addWatch(folder: String) throws(WatchError) {
        let path = folder.isEmpty ? root.path : root.appendingPathComponent(folder).path
        let wd = inotify_add_watch(fileDescriptor, path, Self.mask)
        guard wd >= 0 else { throw .watchFailed(path: path, reason: String(cString: strerror(errno))) }
        watches[wd] = folder
    }

    /// After an overflow some folder creations may have been missed.
    private func rewatchFolders() {
        let known = Set(watches.values)
        for folder in Self.subdirectories(of: root) where !known.contains(folder) {
            try? addWatch(folder: folder)
        }
    }

    private static func subdirectories(of url: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { name in
            var info = stat()
            return !name.hasPrefix(".") && stat(url.appendingPathComponent(name).path, &info) == 0
                && (info.st_mode & S_IFMT) == S_IFDIR
        }
    }
}
