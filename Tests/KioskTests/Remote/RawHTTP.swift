import Foundation
import Glibc

/// A deliberately small HTTP/1.1 client on a raw TCP socket, so tests can also send
/// what no real client would: half requests, garbage, oversized bodies.
final class RawHTTP {
    struct Reply {
        let status: Int
        let headers: [String: String]
        let body: String
    }

    let fd: Int32
    private var buffered = Data()

    /// Connects to `host:port`, from the address `source` when given (another loopback
    /// address stands for another machine).
    init(port: UInt16, host: String = "127.0.0.1", source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(fd)
                throw POSIXError(.EADDRNOTAVAIL)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }

    deinit { close(fd) }

    /// Sends bytes; false once the peer has closed.
    @discardableResult
    func send(_ bytes: Data) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Data(text.utf8)) }

    /// Reads what arrives within `timeout`; nil data and true when the peer closed.
    func readSome(timeout: Double) -> (Data, closed: Bool) {
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, Int32(timeout * 1000)) > 0 else { return (Data(), false) }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = read(fd, &chunk, chunk.count)
        if count <= 0 { return (Data(), true) }
        return (Data(chunk[0..<count]), false)
    }

    /// Whether the server closes the connection within `seconds`.
    func closedByServer(within seconds: Double) -> Bool {
        let deadline = Date() + seconds
        while Date() < deadline {
            let (_, closed) = readSome(timeout: 0.05)
            if closed { return true }
        }
        return false
    }

    /// One whole reply (Content-Length or until close).
    func readReply(timeout: Double = 5) -> Reply? {
        let deadline = Date() + timeout
        while Date() < deadline {
            if let reply = parse() { return reply }
            let (data, closed) = readSome(timeout: 0.05)
            buffered.append(data)
            if closed { return parse(closed: true) }
        }
        return nil
    }

    private func parse(closed: Bool = false) -> Reply? {
        guard let end = buffered.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: buffered[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = head[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let bodyStart = end.upperBound
        if let length = headers["content-length"].flatMap(Int.init) {
            guard buffered.count - bodyStart >= length else { return nil }
            let body = String(decoding: buffered[bodyStart..<bodyStart + length], as: UTF8.self)
            buffered.removeSubrange(..<(bodyStart + length))
            return Reply(status: status, headers: headers, body: body)
        }
        guard closed else { return nil }
        return Reply(status: status, headers: headers, body: String(decoding: buffered[bodyStart...], as: UTF8.self))
    }

    /// One request on a fresh connection.
    static func request(port: UInt16, _ method: String, _ path: String, token: String?, body: Data = Data(),
                        extraHeaders: [String] = [], source: String? = nil) -> Reply? {
        guard let client = try? RawHTTP(port: port, source: source) else { return nil }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let token { head += "X-Rig-Key: \(token)\r\n" }
        for header in extraHeaders { head += header + "\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        client.send(head + "\r\n")
        if !body.isEmpty { client.send(body) }
        return client.readReply()
    }
}
