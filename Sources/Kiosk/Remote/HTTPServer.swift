import CLinux
import CMicroHTTPD
import Foundation
import Glibc

/// The remote's HTTP server: libmicrohttpd without a thread of its own (MHD_USE_EPOLL),
/// driven by the kiosk's event loop through its one epoll descriptor and its timeout.
/// Every request is answered on the loop thread, where the app state lives, so the
/// control handler is called directly, exactly as the Unix socket calls it.
/// Owns the MHD daemon (and, through it, the listening socket).
package final class HTTPServer {
    enum Failure: Error, CustomStringConvertible {
        case socket(String, String, Int32)
        case start(String)

        var description: String {
            switch self {
            case let .socket(call, address, code): "\(call) \(address): \(String(cString: strerror(code)))"
            case let .start(address): "libmicrohttpd could not start on \(address)"
            }
        }
    }

    package struct Limits {
        package var maxBodyBytes = 64 * 1024
        var timeoutSeconds = 10
        var maxConnections = 64
        var maxConnectionsPerAddress = 16

        package init() {}
    }

    typealias Handler = (HTTPRequest) -> HTTPResponse

    let address: SocketAddress
    let limits: Limits
    private let loop: EventLoop
    private let handler: Handler
    private let accepts: (SocketAddress) -> Bool
    private var daemon: OpaquePointer?
    private var source: EventLoop.SourceID?
    private var timer: EventLoop.TimerID?
    private var pumpQueued = false
    private(set) var streams: [ObjectIdentifier: EventStreamClient] = [:]

    /// Listens on `address` (port 0: a free one; `address` then holds the real port).
    init(address: SocketAddress, limits: Limits, loop: EventLoop, accepts: @escaping (SocketAddress) -> Bool,
         handler: @escaping Handler) throws(Failure) {
        self.loop = loop
        self.limits = limits
        self.handler = handler
        self.accepts = accepts
        let fd = rig_tcp_socket(address.family)
        guard fd >= 0 else { throw .socket("socket", "\(address)", errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if !address.isIPv4 { setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size)) }
        let bound = address.withSockaddr { bind(fd, $0, $1) }
        guard bound == 0, listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw .socket("bind", "\(address)", code)
        }
        self.address = Self.localAddress(fd) ?? address
        let cls = Unmanaged.passUnretained(self).toOpaque()
        daemon = rig_mhd_start(fd, UInt32(limits.timeoutSeconds), UInt32(limits.maxConnections),
                               UInt32(limits.maxConnectionsPerAddress), 32 * 1024, Self.acceptPolicy,
                               Self.access, Self.completed, cls)
        guard let daemon else {
            close(fd)
            throw .start("\(address)")
        }
        let epoll = rig_mhd_epoll_fd(daemon)
        source = loop.addReader(fd: epoll, name: "remote http") { [weak self] in self?.pump() }
        pump()
    }

    deinit {
        if let source { loop.remove(source) }
        if let timer { loop.cancel(timer) }
        // MHD must not be stopped with suspended connections: let every stream end.
        for stream in streams.values { stream.end(pump: false) }
        if let daemon {
            MHD_run(daemon)
            MHD_stop_daemon(daemon)
        }
    }

    /// Lets MHD do what is due (reads, writes, timeouts), then waits for its next deadline.
    func pump() {
        guard let daemon else { return }
        MHD_run(daemon)
        if let timer { loop.cancel(timer) }
        timer = nil
        var ms: UInt64 = 0
        if MHD_get_timeout(daemon, &ms) == rig_mhd_yes {
            timer = loop.addTimer(at: loop.clock() + Double(ms) / 1000) { [weak self] in
                self?.timer = nil
                self?.pump()
            }
        }
    }

    /// Pumps once the current handler has returned: libmicrohttpd must not be run from
    /// inside its own callbacks, where an event is often queued.
    func pumpSoon() {
        guard !pumpQueued else { return }
        pumpQueued = true
        loop.addTimer(at: loop.clock()) { [weak self] in
            self?.pumpQueued = false
            self?.pump()
        }
    }

    private static func localAddress(_ fd: Int32) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                getsockname(fd, address, &length) == 0 ? SocketAddress(UnsafePointer(address)) : nil
            }
        }
    }

    // MARK: libmicrohttpd's callbacks (on the loop thread, inside MHD_run)

    fileprivate static func server(_ cls: UnsafeMutableRawPointer?) -> HTTPServer? {
        cls.map { Unmanaged<HTTPServer>.fromOpaque($0).takeUnretainedValue() }
    }

    private static let acceptPolicy: rig_mhd_accept_policy = { cls, address, _ in
        guard let server = server(cls), let address, let peer = SocketAddress(address) else { return rig_mhd_no }
        return server.accepts(peer) ? rig_mhd_yes : rig_mhd_no
    }

    private static let access: rig_mhd_access_handler = { cls, connection, url, method, _, upload, uploadSize, state in
        guard let server = server(cls), let connection, let state, let uploadSize else { return rig_mhd_no }
        if state.pointee == nil {
            let exchange = HTTPExchange(connection: connection)
            state.pointee = Unmanaged.passRetained(exchange).toOpaque()
            if let length = exchange.header("content-length").flatMap(Int.init), length > server.limits.maxBodyBytes {
                exchange.refuseBody(limit: server.limits.maxBodyBytes)
            }
            return rig_mhd_yes
        }
        let exchange = Unmanaged<HTTPExchange>.fromOpaque(state.pointee!).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            // A body past the limit (chunked, so its length was not known up front) is
            // not read to its end: the connection is closed now.
            guard !exchange.answered, let upload,
                  exchange.body.count + uploadSize.pointee <= server.limits.maxBodyBytes else { return rig_mhd_no }
            exchange.body.append(UnsafeRawPointer(upload).assumingMemoryBound(to: UInt8.self), count: uploadSize.pointee)
            uploadSize.pointee = 0
            return rig_mhd_yes
        }
        if exchange.answered { return rig_mhd_yes }
        let request = exchange.request(method: method.map { String(cString: $0) } ?? "GET",
                                       url: url.map { String(cString: $0) } ?? "/")
        switch server.handler(request) {
        case let .body(status, contentType, data, headers):
            return exchange.answer(status: status, contentType: contentType, data: data, headers: headers)
        case let .eventStream(client):
            server.streams[ObjectIdentifier(exchange)] = client
            client.attach(connection: connection, server: server)
            exchange.stream = client
            return exchange.answerStream(client)
        }
    }

    private static let completed: rig_mhd_completed_handler = { cls, _, state, _ in
        guard let state, let raw = state.pointee else { return }
        let exchange = Unmanaged<HTTPExchange>.fromOpaque(raw).takeRetainedValue()
        state.pointee = nil
        if let stream = exchange.stream {
            stream.detach()
            server(cls)?.streams[ObjectIdentifier(exchange)] = nil
        }
    }
}
