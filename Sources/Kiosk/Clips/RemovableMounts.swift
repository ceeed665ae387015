import Foundation
import Stage

/// The rig's share sheet's destinations: filesystems mounted under /media or
/// /run/media, read from /proc/self/mounts, plus rig.toml's `[recording] export_folder`.
/// On the installed rig, rig-media@.service mounts USB sticks under /run/media/rig
/// (those the kiosk can Eject); a desktop's udisks2 uses /media/USER or
/// /run/media/USER, fstab entries /media.
///
/// The kernel's own list rather than asking systemd or udisks2: always there, needs no
/// daemon, and lists sticks mounted by any means. /proc/self/mounts, not /proc/mounts:
/// rig.service's ProcSubset=pid hides /proc's symlink, and the kiosk listed nothing. A read-only
/// one (a write-protected stick) is listed so that choosing it says why it is refused.
enum RemovableMounts {
    static let roots = ["/media/", "/run/media/"]
    /// Where rig-media@.service mounts sticks (systemd/rig-media-mount).
    static let rigRoot = "/run/media/rig/"

    /// Mount points in `text` (the format of /proc/mounts) under the removable roots,
    /// in the order mounted.
    static func parse(_ text: String) -> [ExportDestination] {
        var seen = Set<String>()
        var found: [ExportDestination] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 4 else { continue }
            let path = unescape(String(fields[1]))
            let options = fields[3].split(separator: ",")
            // rig.service's ReadWritePaths= makes /run/media/rig a mount point of its own in
            // the kiosk's namespace: the folder the sticks are in, not a stick.
            guard roots.contains(where: { path.hasPrefix($0) }), path + "/" != rigRoot, seen.insert(path).inserted
            else { continue }
            let ours = path.hasPrefix(rigRoot) && !path.dropFirst(rigRoot.count).contains("/")
            found.append(ExportDestination(name: "USB: " + (path as NSString).lastPathComponent, path: path,
                                           kind: .removable, readOnly: options.contains("ro"), ejectable: ours))
        }
        return found
    }

    /// The destinations now: the mounted removable filesystems, then the export folder.
    static func destinations(mounts: String = "/proc/self/mounts", exportFolder: String) -> [ExportDestination] {
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
