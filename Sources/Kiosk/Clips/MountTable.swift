import Foundation

/// The kiosk's view of what is mounted (/proc/self/mountinfo): whether a stick is still
/// mounted, and a wait for it to go that wakes on the kernel's mount-table events
/// rather than on a timer.
enum MountTable {
    static let path = "/proc/self/mountinfo"

    /// Whether `mountPoint` is a mount point in `mountinfo` (its format: the fifth field,
    /// octal escapes as in /proc/mounts).
    static func contains(_ mountPoint: String, in mountinfo: String) -> Bool {
        mountinfo.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count > 4 && RemovableMounts.unescape(String(fields[4])) == mountPoint
        }
    }

    /// Waits until `mountPoint` is no longer mounted, at most `seconds`; true when it went.
    /// The kernel flags a change of the table with POLLPRI on an open mountinfo.
    static func waitUntilGone(_ mountPoint: String, seconds: Double) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let deadline = MonotonicTime.now() + seconds
        while true {
            guard let text = read(fd) else { return false }
            if !contains(mountPoint, in: text) { return true }
            let left = deadline - MonotonicTime.now()
            guard left > 0 else { return false }
            var wanted = pollfd(fd: fd, events: Int16(POLLPRI), revents: 0)
            _ = poll(&wanted, 1, Int32(min(left * 1000, 1000).rounded(.up)))
        }
    }

    /// The whole table from the start of `fd`.
    private static func read(_ fd: Int32) -> String? {
        guard lseek(fd, 0, SEEK_SET) == 0 else { return nil }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { return String(decoding: data, as: UTF8.self) }
            data.append(contentsOf: buffer[0..<count])
        }
    }
}
