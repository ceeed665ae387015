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

    var json: JSONValue {
        ["id": .string(id), "to": .string(destination), "state": .string(state.rawValue), "error": .optional(error),
         "note": .optional(note), "fraction": fraction.map { .number($0) } ?? .null]
    }

    /// Copies `source` to `destination` under a temporary name, fsyncs and renames it,
    /// so a stick pulled out mid-copy never holds a file that looks whole.
    /// `progress` is told the bytes copied and the total (on the copying thread).
    static func copy(_ source: String, to destination: String,
                     progress: (UInt64, UInt64) -> Void = { _, _ in }) throws(RecordingError) {
        let temporary = (destination as NSString).deletingLastPathComponent + "/."
            + (destination as NSString).lastPathComponent + ".partial"
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .folder(path: source, reason: String(cString: strerror(errno))) }
        defer { close(input) }
        let output = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw .folder(path: destination, reason: String(cString: strerror(errno))) }
        var status = stat()
        let total = fstat(input, &status) == 0 ? UInt64(max(0, status.st_size)) : 0
        var copied: UInt64 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var failure: Int32 = 0
        copying: while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            var done = 0
            while done < count {
                let written = buffer.withUnsafeBytes { bytes -> Int in
                    guard let base = bytes.baseAddress else { return -1 }
                    return write(output, base + done, count - done)
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break copying
                }
                done += written
            }
            copied += UInt64(count)
            progress(copied, total)
        }
        if failure == 0 && fsync(output) != 0 { failure = errno }
        close(output)
        guard failure == 0, rename(temporary, destination) == 0 else {
            let code = failure != 0 ? failure : errno
            unlink(temporary)
            throw .folder(path: destination, reason: String(cString: strerror(code)))
        }
        let directory = open((destination as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }
}
