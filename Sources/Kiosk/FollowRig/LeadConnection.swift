import Foundation
import Glibc

/// One HTTP/1.0 request to the lead rig's remote over a blocking socket with deadlines:
/// a short request (`get`) or the live event stream (`openStream`, then `nextEvent`).
/// HTTP/1.0 so the reply is the body until the lead closes, never chunked. The key goes
/// in `X-Rig-Key` and nowhere else (no log line carries it). Used on the link's threads.
final class LeadConnection {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        /// The lead closed the connection: for a reply read to its end, that is its end.
        var closed = false
        init(_ description: String, closed: Bool = false) {
            self.description = description
            self.closed = closed
        }
    }

    private let fd: Int32
    private var buffer = [UInt8]()

    /// Connects within `timeout` seconds.
    init(to address: SocketAddress, timeout: Double) throws(Failure) {
        fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let started = address.withSockaddr { connect(fd, $0, $1) }
        if started != 0 {
            guard errno == EINPROGRESS else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw Failure("\(address): \(reason)")
            }
            do {
                try wait(for: Int16(POLLOUT), timeout: timeout)
            } catch {
                close(fd)
                throw Failure("\(address): no answer within \(Int(timeout * 1000)) ms")
            }
            var problem: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &problem, &length)
            if problem != 0 {
                close(fd)
                throw Failure("\(address): \(String(cString: strerror(problem)))")
            }
        }
    }

    deinit { close(fd) }

    /// Ends the connection from another thread: a read waiting on it returns at once.
    func cut() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Sends `GET path` with the key and reads the status line and headers.
    func send(path: String, host: String, key: String, accept: String, timeout: Double) throws(Failure) -> Int {
        let request = "GET \(path) HTTP/1.0\r\nHost: \(host)\r\nX-Rig-Key: \(key)\r\nAccept: \(accept)\r\n"
            + "User-Agent: rig-follower\r\n\r\n"
        var bytes = Array(request.utf8)
        var sent = 0
        let deadline = MonotonicTime.now() + timeout
        while sent < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n > 0 { sent += n; continue }
            guard n < 0, errno == EAGAIN || errno == EINTR else { throw Failure("send: \(String(cString: strerror(errno)))") }
            try wait(for: Int16(POLLOUT), timeout: deadline - MonotonicTime.now())
        }
        bytes.removeAll()
        while true {
            if let end = headerEnd() {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
                let status = head.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
                guard let status else { throw Failure("the lead's reply is not HTTP") }
                return status
            }
            guard buffer.count < 64 << 10 else { throw Failure("the lead's reply headers are too long") }
            try fill(deadline: deadline)
        }
    }

    /// The rest of the reply, until the lead closes (at most `limit` bytes).
    func body(timeout: Double, limit: Int = 64 << 20) throws(Failure) -> Data {
        let deadline = MonotonicTime.now() + timeout
        while true {
            guard buffer.count <= limit else { throw Failure("the lead's reply is over \(limit >> 20) MB") }
            do {
                try fill(deadline: deadline)
            } catch let failure where failure.closed {
                return Data(buffer)
            }
        }
    }

    /// The next server-sent event (name, data); nil on a heartbeat. Nothing at all
    /// within `timeout` throws: the lead sends a heartbeat every 15 s.
    func nextEvent(timeout: Double) throws(Failure) -> (event: String, data: String)? {
        let deadline = MonotonicTime.now() + timeout
        while true {
            if let end = eventEnd() {
                let block = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 2)
                var name = "message", data: [Substring] = []
                for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                    if line.hasPrefix("event:") { name = line.dropFirst(6).trimmingCharacters(in: .whitespaces) }
                    if line.hasPrefix("data:") { data.append(line.dropFirst(5).drop { $0 == " " }) }
                }
                if data.isEmpty { return nil }
                return (name, data.joined(separator: "\n"))
            }
            guard buffer.count < 4 << 20 else { throw Failure("an event from the lead is over 4 MB") }
            try fill(deadline: deadline)
        }
    }

    private static let timedOut = "the lead did not answer in time"

    private func headerEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4) where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }

    private func eventEnd() -> Int? {
        guard buffer.count >= 2 else { return nil }
        for i in 0...(buffer.count - 2) where buffer[i] == 10 && buffer[i + 1] == 10 { return i }
        return nil
    }

    private func fill(deadline: Double) throws(Failure) {
        try wait(for: Int16(POLLIN), timeout: deadline - MonotonicTime.now())
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 { buffer.append(contentsOf: chunk[..<n]); return }
        if n == 0 { throw Failure("the lead closed the connection", closed: true) }
        guard errno == EAGAIN || errno == EINTR else { throw Failure("receive: \(String(cString: strerror(errno)))") }
    }

    private func wait(for events: Int16, timeout: Double) throws(Failure) {
        guard timeout > 0 else { throw Failure(Self.timedOut) }
        var entry = pollfd(fd: fd, events: events, revents: 0)
        let ready = poll(&entry, 1, Int32(min(timeout, 3600) * 1000))
        if ready < 0, errno == EINTR { return }
        guard ready > 0 else { throw Failure(Self.timedOut) }
    }
}
