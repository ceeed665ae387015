import Foundation
import Stage

/// The rig's share sheet's destinations: writable filesystems mounted under /media
/// or /run/media (where udisks2 mounts a USB stick: /media/USER/LABEL on Debian,
/// /run/media/USER/LABEL elsewhere; fstab and systemd automounts use /media too),
/// read from /proc/mounts, plus rig.toml's `[recording] export_folder`.
///
/// /proc/mounts rather than `udisksctl`: it is the kernel's own list, always there,
/// needs no daemon, no D-Bus and no polkit rule for the kiosk's unprivileged user,
/// and has a stable format; `udisksctl status`/`info` print for people, not programs.
/// Mounting a stick stays udisks2's (or the automounter's) job either way.
enum RemovableMounts {
    static let roots = ["/media/", "/run/media/"]

    /// Mount points in `text` (the format of /proc/mounts) under the removable roots,
    /// mounted read-write, in the order mounted.
    static func parse(_ text: String) -> [ExportDestination] {
        var seen = Set<String>()
        var found: [ExportDestination] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 4 else { continue }
            let path = unescape(String(fields[1]))
            let options = fields[3].split(separator: ",")
            guard roots.contains(where: { path.hasPrefix($0) }), !options.contains("ro"), seen.insert(path).inserted
            else { continue }
            found.append(ExportDestination(name: "USB: " + (path as NSString).lastPathComponent, path: path,
                                           kind: .removable))
        }
        return found
    }

    /// The destinations now: the mounted removable filesystems, then the export folder.
    static func destinations(mounts: String = "/proc/mounts", exportFolder: String) -> [ExportDestination] {
        var list = parse((try? String(contentsOfFile: mounts, encoding: .utf8)) ?? "")
        if !exportFolder.isEmpty, !list.contains(where: { $0.path == exportFolder }) {
            list.append(ExportDestination(name: "Export folder", path: exportFolder, kind: .folder))
        }
        return list
    }

    /// /proc/mounts writes a space as \040, a tab as \011, a backslash as \134.
    static func unescape(_ field: String) -> String {
        guard field.contains("\\") else { return field }
        var bytes: [UInt8] = []
        let source = Array(field.utf8)
        var index = 0
        while index < source.count {
            if source[index] == UInt8(ascii: "\\"), index + 3 < source.count,
               let value = UInt8(String(decoding: source[(index + 1)...(index + 3)], as: UTF8.self), radix: 8) {
                bytes.append(value)
                index += 4
            } else {
                bytes.append(source[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
