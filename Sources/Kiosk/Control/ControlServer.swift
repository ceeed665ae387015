import Foundation
import Stage

/// The control socket: a Unix stream socket where each request is one JSON line and
/// each reply is one JSON line. It runs on the event loop and never blocks it: a
/// client that sends garbage, an endless line or disconnects mid-line only loses
/// its own connection.
final class ControlServer {
    /// Longer requests are refused; no command needs more.
    static let maxRequestBytes = 64 * 1024
    /// Replies waiting for a slow reader; past this the client is dropped.
    static let maxPendingReplyBytes = 16 * 1024 * 1024

    typealias Handler = (ControlRequest) -> ControlReply

    private let loop: EventLoop
    private let listener: UnixListener
    private let handler: Handler
    private var clients: [Int32: ControlClient] = [:]
    private var listenerSource: EventLoop.SourceID?

    init(path: String, loop: EventLoop, handler: @escaping Handler) throws {
        self.loop = loop
        self.handler = handler
        listener = try UnixListener(path: path, mode: 0o660)
        listenerSource = loop.addReader(fd: listener.fd, name: "control socket") { [weak self] in
            self?.acceptClients()
        }
    }

    deinit {
        if let listenerSource { loop.remove(listenerSource) }
        for client in clients.values { loop.remove(client.source) }
    }

    var clientCount: Int { clients.count }

    private func acceptClients() {
        while let fd = listener.accept() {
            let source = loop.addReader(fd: fd, name: "control client") { [weak self] in
                self?.readFrom(fd)
            }
            clients[fd] = ControlClient(fd: fd, source: source)
        }
    }

    private func readFrom(_ fd: Int32) {
        guard let client = clients[fd] else { return }
        switch client.receive(limit: Self.maxRequestBytes) {
        case .closed:
            drop(fd)
        case let .lines(lines, overflowed):
            if overflowed {
                client.send(ControlReply.failure("request longer than \(Self.maxRequestBytes) bytes").line)
            }
            for line in lines { client.send(reply(to: line).line) }
            if !client.flush(limit: Self.maxPendingReplyBytes) { drop(fd) }
        }
    }

    private func reply(to line: Data) -> ControlReply {
        switch ControlRequest.parse(line) {
        case let .success(request): return handler(request)
        case let .failure(error): return .failure(error.description)
        }
    }

    private func drop(_ fd: Int32) {
        guard let client = clients.removeValue(forKey: fd) else { return }
        loop.remove(client.source)
    }
}
