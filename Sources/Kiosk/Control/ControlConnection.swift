import Foundation
import Glibc
import Stage

/// The client end of the control socket, as `rig ctl` and tests use it: send one
/// request line, wait (with a deadline) for one reply line.
final class ControlConnection {
    enum Failure: Error, CustomStringConvertible {
        case connect(String, Int32)
        case timeout(String)
        case closed(String)
        case badReply(String)

        var description: String {
            switch self {
            case let .connect(path, code):
                "no kiosk answers on \(path) (\(String(cString: strerror(code)))); is rig running, and is --socket right?"
            case let .timeout(path): "the kiosk on \(path) did not reply within the time limit"
            case let .closed(path): "the kiosk on \(path) closed the connection without replying"
            case let .badReply(text): "the kiosk sent a reply that is not JSON: \(text.prefix(200))"
            }
        }
    }

    private let fd: Int32
    private let path: String
    private var buffered = Data()

    init(path: String) throws(Failure) {
        self.path = path
        guard var address = try? UnixListener.address(path) else { throw .connect(path, ENAMETOOLONG) }
        // A local until connected: a class whose init throws after every stored property
        // is set still runs deinit, which would close the descriptor a second time (by
        // then perhaps another thread's).
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard fd >= 0, connected == 0 else {
            let code = errno
            close(fd)
            throw .connect(path, code)
        }
        self.fd = fd
    }

    deinit { close(fd) }

    func send(raw: Data) {
        var offset = 0
        while offset < raw.count {
            let written = raw.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return }
            offset += written
        }
    }

    func request(_ request: ControlRequest, timeout: Double = 5) throws(Failure) -> JSONValue {
        send(raw: Data((request.json.serialized + "\n").utf8))
        return try readReply(timeout: timeout)
    }

    /// The next reply line, parsed.
    func readReply(timeout: Double = 5) throws(Failure) -> JSONValue {
        let deadline = MonotonicTime.now() + timeout
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffered[buffered.startIndex..<newline]
                buffered.removeSubrange(buffered.startIndex...newline)
                guard let reply = JSONValue.parse(Data(line)) else {
                    throw .badReply(String(decoding: line, as: UTF8.self))
                }
                return reply
            }
            let remaining = deadline - MonotonicTime.now()
            guard remaining > 0 else { throw .timeout(path) }
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = read(fd, &chunk, chunk.count)
            guard count > 0 else { throw .closed(path) }
            buffered.append(contentsOf: chunk[0..<count])
        }
    }
}
