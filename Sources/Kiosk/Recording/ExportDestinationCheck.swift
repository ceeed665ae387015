import Foundation

/// Before an export starts: a destination mounted read-only (a write-protected stick),
/// one the kiosk may not write to, or one without room for the files is refused with
/// the reason, rather than failing halfway and leaving the stick half full.
enum ExportDestinationCheck {
    /// Kept free beyond the files' size: a filesystem's own bookkeeping (FAT clusters,
    /// directory entries, ext4 metadata) takes some of the room statvfs reports.
    static let margin: UInt64 = 1 << 20

    struct Space: Equatable {
        var readOnly: Bool
        var freeBytes: UInt64
    }

    /// Why `folder` cannot take `needs` bytes now, or nil when it can.
    static func refusal(folder: String, needs: UInt64) -> RecordingError? {
        var info = statvfs()
        guard statvfs(folder, &info) == 0 else {
            return .exportFailed(destination: folder, reason: String(cString: strerror(errno)))
        }
        let space = Space(readOnly: info.f_flag & UInt(ST_RDONLY) != 0,
                          freeBytes: UInt64(info.f_bavail) * UInt64(info.f_frsize))
        if let refusal = refusal(folder: folder, space: space, needs: needs) { return refusal }
        if access(folder, W_OK) != 0 {
            return errno == EROFS ? .exportReadOnly(folder)
                : .exportFailed(destination: folder, reason: "the kiosk may not write there (\(String(cString: strerror(errno))))")
        }
        return nil
    }

    /// The decision on what statvfs said.
    static func refusal(folder: String, space: Space, needs: UInt64) -> RecordingError? {
        if space.readOnly { return .exportReadOnly(folder) }
        if space.freeBytes < needs + margin { return .exportFull(folder, needs: needs, free: space.freeBytes) }
        return nil
    }
}
