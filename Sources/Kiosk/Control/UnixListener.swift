import Foundation
import Glibc
import Stage

/// A listening Unix stream socket, non-blocking, at a path with a given mode.
/// A stale socket file from a previous run is replaced.
final class UnixListener {
    enum Failure: Error, CustomStringConvertible {
        case pathTooLong(String)
        case system(String, String, Int32)

        var description: String {
            switch self {
            case let .pathTooLong(path): "control socket path is too long: \(path)"
            case let .system(call, path, code): "\(call) \(path): \(String(cString: strerror(code)))"
            }
        }
    }

    let fd: Int32
    let path: String

    init(path: String, mode: mode_t) throws(Failure) {
        self.path = path
        var address = try Self.address(path)
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        unlink(path)
        // A local until listening: an init that throws once every stored property is set
        // still runs deinit, which would close it twice and unlink the path.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system("socket", path, errno) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw .system("bind", path, code)
        }
        chmod(path, mode)
        guard listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            throw .system("listen", path, code)
        }
        self.fd = fd
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// The next waiting connection, non-blocking, or nil when there is none.
    func accept() -> Int32? {
        let client = Glibc.accept(fd, nil, nil)
        guard client >= 0 else { return nil }
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        return client
    }

    static func address(_ path: String) throws(Failure) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw .pathTooLong(path) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }
}
