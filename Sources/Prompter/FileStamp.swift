import Foundation

/// What stat(2) says about a regular file: enough to tell that it changed (or, by its
/// inode, that it was only renamed) without reading it.
struct FileStamp: Equatable {
    var modified: Date
    var size: Int
    var inode: UInt64

    /// Nil when nothing is at `path` or it is not a regular file.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let seconds = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1_000_000_000
        modified = Date(timeIntervalSince1970: seconds)
        size = Int(info.st_size)
        inode = UInt64(info.st_ino)
    }
}
