import Foundation
import Testing
@testable import Kiosk

/// An export onto a stick: the copy under a hidden name, fsynced and renamed (never a
/// half file under the clip's name), and a destination that is read-only or full
/// refused before a byte is copied, naming the place and the reason. The small tmpfs
/// ones are real filesystems (mounted when this process may mount, as root can).
struct StickExportTests {
    private static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "rig-stick-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private static func bytes(_ count: Int) -> Data { Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }) }

    @Test func theCopyIsWholeOwnerOnlyAndLeavesNoHiddenFile() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let source = root + "/clip.mp4"
        try Self.bytes(3 << 20 + 17).write(to: URL(fileURLWithPath: source))
        try FileManager.default.createDirectory(atPath: root + "/stick", withIntermediateDirectories: true)
        var reports: [(UInt64, UInt64)] = []
        try ClipExport.copy(source, to: root + "/stick/clip.mp4") { reports.append(($0, $1)) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: root + "/stick/clip.mp4")) == Self.bytes(3 << 20 + 17))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/stick") == ["clip.mp4"])
        let mode = try FileManager.default.attributesOfItem(atPath: root + "/stick/clip.mp4")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(reports.last.map { $0.0 == $0.1 && $0.1 == UInt64(3 << 20 + 17) } == true)
    }

    @Test func aCopyThatCannotBeWrittenNamesThePlace() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/clip.mp4"))
        do {
            try ClipExport.copy(root + "/clip.mp4", to: root + "/gone/clip.mp4")
            Issue.record("copied into a folder that is not there")
        } catch {
            #expect(error == .exportFailed(destination: root + "/gone/clip.mp4", reason: "No such file or directory"))
            #expect(error.description.contains("the clip on the rig is intact"))
        }
    }

    @Test func aCopyOnAStickSaysToEjectFirst() {
        let sticks = RemovableMounts.parse("/dev/sdb1 /run/media/rig/RIGSTICK vfat rw,nosuid,nodev,noexec 0 0")
        #expect(ClipExport.doneMessage(destination: "/run/media/rig/RIGSTICK/a.mp4", sticks: sticks)
            == "copied — safe to remove after Eject")
        #expect(ClipExport.doneMessage(destination: "/srv/clips/a.mp4", sticks: sticks) == "copied")
        #expect(ClipExport.doneMessage(destination: "/run/media/rig/RIGSTICK2/a.mp4", sticks: sticks) == "copied")
    }

    @Test func theReasonsAreAStick() {
        #expect(ClipExport.reason(EIO).contains("pulled out before Eject"))
        #expect(ClipExport.reason(ENOSPC).hasPrefix("the stick is full"))
        #expect(ClipExport.reason(EROFS).hasPrefix("the stick is read-only"))
    }

    @Test func readOnlyAndFullAreRefusedWithTheReason() {
        let check = ExportDestinationCheck.self
        #expect(check.refusal(folder: "/run/media/rig/STICK", space: .init(readOnly: true, freeBytes: 1 << 30),
                              needs: 10) == .exportReadOnly("/run/media/rig/STICK"))
        let full = check.refusal(folder: "/run/media/rig/STICK", space: .init(readOnly: false, freeBytes: 3_000_000),
                                 needs: 2_500_000)
        #expect(full == .exportFull("/run/media/rig/STICK", needs: 2_500_000, free: 3_000_000))
        #expect(full?.description == "/run/media/rig/STICK is full: the clip needs 2.5 MB, 3.0 MB are free; nothing was copied")
        #expect(check.refusal(folder: "/s", space: .init(readOnly: false, freeBytes: 4_000_000), needs: 2_500_000) == nil)
    }

    @Test func aRealFolderIsCheckedByStatvfs() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(ExportDestinationCheck.refusal(folder: root, needs: 1000) == nil)
        guard case .exportFull(root, needs: UInt64.max / 4, _)? = ExportDestinationCheck.refusal(folder: root, needs: UInt64.max / 4)
        else { Issue.record("a clip bigger than the disk was not refused as full"); return }
        guard case .exportFailed? = ExportDestinationCheck.refusal(folder: root + "/none", needs: 1) else {
            Issue.record("a folder that is not there was not refused"); return
        }
    }

    @Test(.enabled(if: SmallTmpfs.canMount, "mounting a tmpfs needs root"))
    func aSmallTmpfsRefusesABigClipAndAFullOneLeavesNoPartialFile() throws {
        let stick = try SmallTmpfs(kilobytes: 1024)
        defer { stick.unmount() }
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let source = root + "/clip.mp4"
        try Self.bytes(2 << 20).write(to: URL(fileURLWithPath: source))
        guard case .exportFull(stick.path, needs: UInt64(2 << 20), _)? =
            ExportDestinationCheck.refusal(folder: stick.path, needs: UInt64(2 << 20)) else {
            Issue.record("a 2 MB clip was not refused by a 1 MB stick"); return
        }
        // Past the check (another writer filled it meanwhile): the copy fails as full,
        // the hidden file goes, the source is untouched.
        do {
            try ClipExport.copy(source, to: stick.path + "/clip.mp4")
            Issue.record("2 MB copied onto a 1 MB tmpfs")
        } catch {
            #expect(error.description.contains("the stick is full"))
            #expect(error.description.contains(stick.path + "/clip.mp4"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: stick.path).isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == Self.bytes(2 << 20))
    }

    @Test(.enabled(if: SmallTmpfs.canMount, "mounting a tmpfs needs root"))
    func aReadOnlyMountIsRefused() throws {
        let stick = try SmallTmpfs(kilobytes: 1024, readOnly: true)
        defer { stick.unmount() }
        #expect(ExportDestinationCheck.refusal(folder: stick.path, needs: 10) == .exportReadOnly(stick.path))
    }
}

/// A tmpfs of a given size in a temporary folder: a stick that fills up, or a
/// write-protected one.
struct SmallTmpfs {
    let path: String

    static let canMount: Bool = {
        guard let probe = try? SmallTmpfs(kilobytes: 64) else { return false }
        probe.unmount()
        return true
    }()

    struct Refused: Error {}

    init(kilobytes: Int, readOnly: Bool = false) throws {
        path = NSTemporaryDirectory() + "rig-tmpfs-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let flags = UInt(readOnly ? MS_RDONLY : 0)
        guard mount("tmpfs", path, "tmpfs", flags, "size=\(kilobytes)k,mode=0700") == 0 else {
            rmdir(path)
            throw Refused()
        }
    }

    func unmount() {
        umount(path)
        rmdir(path)
    }
}
