import Foundation
import Testing
@testable import Kiosk

/// The share sheet's destinations from /proc/mounts: mounts under /media and
/// /run/media (a read-only one flagged), escapes decoded, plus the export folder.
struct RemovableMountsTests {
    static let mounts = """
        /dev/sda1 / ext4 rw,relatime 0 0
        proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0
        /dev/sdb1 /media/rig/STICK vfat rw,nosuid,nodev,relatime,uid=1000 0 0
        /dev/sdc1 /run/media/rig/My\\040Clips exfat rw,nosuid,nodev 0 0
        /dev/sr0 /media/cdrom0 iso9660 ro,nosuid,nodev 0 0
        tmpfs /run tmpfs rw,nosuid,nodev 0 0
        tmpfs /run/media/rig tmpfs rw,nosuid 0 0
        """

    @Test func listsRemovableMountsInOrder() {
        let found = RemovableMounts.parse(Self.mounts)
        #expect(found.map(\.path) == ["/media/rig/STICK", "/run/media/rig/My Clips", "/media/cdrom0"])
        #expect(found.map(\.name) == ["USB: STICK", "USB: My Clips", "USB: cdrom0"])
        #expect(found.map(\.readOnly) == [false, false, true])
        // Only what rig-media@.service mounted can be ejected by the kiosk; the folder
        // itself (a bind mount in rig.service's namespace) is no destination.
        #expect(found.map(\.ejectable) == [false, true, false])
        #expect(found.allSatisfy { $0.kind == .removable })
    }

    @Test func theExportFolderComesLastAndOnlyWhenSet() throws {
        let path = NSTemporaryDirectory() + "/rig-mounts-\(UInt32.random(in: 0...UInt32.max))"
        try Self.mounts.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(RemovableMounts.destinations(mounts: path, exportFolder: "").count == 3)
        let list = RemovableMounts.destinations(mounts: path, exportFolder: "/srv/clips")
        #expect(list.last?.path == "/srv/clips" && list.last?.kind == .folder && list.count == 4)
        #expect(RemovableMounts.destinations(mounts: "/nonexistent", exportFolder: "/srv/clips").map(\.path) == ["/srv/clips"])
    }
}
