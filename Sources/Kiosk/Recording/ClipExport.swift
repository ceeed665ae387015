import Durable
import Foundation
import Stage

/// One export of a clip to a folder (a mounted USB stick, a share): its state for
/// `status` and the copy itself, which runs on a thread of its own.
struct ClipExport: Sendable, Equatable {
    enum State: String, Sendable { case copying, done, failed }
    var id: String
    var destination: String
    var state: State
    var error: String?
    /// Said with the reply, such as why the original was copied instead of a derived file.
    var note: String?
    /// 0…1 of the media copied, while copying.
    var fraction: Double?
    /// Said when done: a copy on a stick may be taken only after Eject.
    var message: String?

    var json: JSONValue {
        ["id": .string(id), "to": .string(destination), "state": .string(state.rawValue), "error": .optional(error),
         "note": .optional(note), "fraction": fraction.map { .number($0) } ?? .null, "message": .optional(message)]
    }

    /// What a finished copy to `destination` says: on a stick (anything the share sheet
    /// lists as removable), that it may be pulled out only after Eject.
    static func doneMessage(destination: String, sticks: [ExportDestination]) -> String {
        sticks.contains { $0.kind == .removable && destination.hasPrefix($0.path + "/") }
            ? "copied — safe to remove after Eject" : "copied"
    }

    /// Copies `source` to `destination` under a hidden temporary name (`.NAME.partial`),
    /// fsyncs it and renames it, then fsyncs the folder: a stick pulled out mid-copy
    /// never holds a file that looks whole. `progress` is told the bytes copied and the
    /// total (on the copying thread). A failure says why in the words of a stick.
    static func copy(_ source: String, to destination: String,
                     progress: (UInt64, UInt64) -> Void = { _, _ in }) throws(RecordingError) {
        let temporary = (destination as NSString).deletingLastPathComponent + "/."
            + (destination as NSString).lastPathComponent + ".partial"
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .folder(path: source, reason: String(cString: strerror(errno))) }
        defer { close(input) }
        // A clip of people: 0600 before a byte is copied, whatever the umask.
        let output = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, AtomicFile.ownerOnlyFileMode)
        guard output >= 0 else { throw .exportFailed(destination: destination, reason: reason(errno)) }
        guard fchmod(output, AtomicFile.ownerOnlyFileMode) == 0 else {
            let code = errno
            close(output)
            unlink(temporary)
            throw .exportFailed(destination: destination, reason: reason(code))
        }
        var status = stat()
        let total = fstat(input, &status) == 0 ? UInt64(max(0, status.st_size)) : 0
        var failure = pump(from: input, to: output, total: total, progress: progress)
        if failure == 0 && fsync(output) != 0 { failure = errno }
        if close(output) != 0 && failure == 0 { failure = errno }
        guard failure == 0, rename(temporary, destination) == 0 else {
            let code = failure != 0 ? failure : errno
            unlink(temporary)
            throw .exportFailed(destination: destination, reason: reason(code))
        }
        let directory = open((destination as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return }
        defer { close(directory) }
        // The rename is only on the stick once its folder is written back.
        if fsync(directory) != 0, errno != EINVAL {
            throw .exportFailed(destination: destination, reason: reason(errno))
        }
    }

    /// Copies everything from `input` to `output`; 0, or the errno that stopped it.
    private static func pump(from input: Int32, to output: Int32, total: UInt64,
                             progress: (UInt64, UInt64) -> Void) -> Int32 {
        var copied: UInt64 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count == 0 { return 0 }
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            var done = 0
            while done < count {
                let written = buffer.withUnsafeBytes { bytes -> Int in
                    guard let base = bytes.baseAddress else { return -1 }
                    return write(output, base + done, count - done)
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += written
            }
            copied += UInt64(count)
            progress(copied, total)
        }
    }

    /// A failed write in the words of a stick: pulled out, full, write-protected.
    static func reason(_ code: Int32) -> String {
        let system = String(cString: strerror(code))
        switch code {
        case EIO, ENODEV, ENXIO, ESHUTDOWN, ENOTCONN, ESTALE:
            return "the stick stopped answering (\(system)): was it pulled out before Eject?"
        case ENOSPC, EDQUOT: return "the stick is full (\(system))"
        case EROFS: return "the stick is read-only (\(system))"
        default: return system
        }
    }
}
