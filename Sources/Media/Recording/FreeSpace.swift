import Glibc

/// Free space for unprivileged writers, as `df` shows it.
public enum FreeSpace {
    public static func available(at path: String) -> UInt64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize)
    }
}
