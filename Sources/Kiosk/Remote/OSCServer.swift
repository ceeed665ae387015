import CLinux
import Foundation
import Glibc
import Stage

/// OSC over UDP on the remote's bind address: `/rig/play KEY`, `/rig/speed 90 KEY`,
/// `/rig/game/verdict pass KEY`. The address after `/rig/` and the arguments map to
/// the same control request as the HTTP API (RemoteCommandMap); a named API key of
/// `[remote.api_keys]` is the last argument. Replies (`/rig/reply`) and state feedback
/// go to the configured host.
final class OSCServer {
    static let maxDatagram = 8192

    let address: SocketAddress
    private let fd: Int32
    private let loop: EventLoop
    private let signedIn: (String?) -> Bool
    private let feedbackPeer: SocketAddress?
    private let accepts: (SocketAddress) -> Bool
    private let perform: (JSONValue) -> ControlReply
    private var source: EventLoop.SourceID?
    private(set) var received = 0
    private(set) var refused = 0

    init(address: SocketAddress, feedback: SocketAddress?, loop: EventLoop, accepts: @escaping (SocketAddress) -> Bool,
         signedIn: @escaping (String?) -> Bool,
         perform: @escaping (JSONValue) -> ControlReply) throws(HTTPServer.Failure) {
        self.loop = loop
        self.signedIn = signedIn
        self.feedbackPeer = feedback
        self.accepts = accepts
        self.perform = perform
        let fd = rig_udp_socket(address.family)
        self.fd = fd
        guard fd >= 0 else { throw .socket("socket", "udp \(address)", errno) }
        guard address.withSockaddr({ bind(fd, $0, $1) }) == 0 else {
            let code = errno
            close(fd)
            throw .socket("bind", "udp \(address)", code)
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let local = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(fd, $0, &length) == 0 ? SocketAddress(UnsafePointer($0)) : nil
            }
        }
        self.address = local ?? address
        source = loop.addReader(fd: fd, name: "remote osc") { [weak self] in self?.receive() }
    }

    deinit {
        if let source { loop.remove(source) }
        close(fd)
    }

    private func receive() {
        var buffer = [UInt8](repeating: 0, count: Self.maxDatagram)
        // A burst is read whole, but a flood cannot keep the loop here forever.
        for _ in 0..<64 {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let count = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(fd, &buffer, buffer.count, 0, $0, &length)
                }
            }
            if count < 0 { return }
            let peer = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0) }
            }
            guard let peer, accepts(peer) else { refused += 1; continue }
            handle(Array(buffer[0..<count]))
        }
    }

    private func handle(_ datagram: [UInt8]) {
        guard let message = OSCMessage(datagram: datagram) else { refused += 1; return }
        switch RemoteRoute.of(path: message.path, arguments: message.arguments, signedIn: signedIn) {
        case nil:
            refused += 1
            reply(.failure("API key missing or wrong: send a key of [remote.api_keys] as the last argument"), to: message.path)
        case let .command(json)?:
            received += 1
            reply(perform(json), to: message.path)
        default:
            refused += 1
            reply(.failure("addresses start with /rig/, such as /rig/play"), to: message.path)
        }
    }

    private func reply(_ reply: ControlReply, to path: String) {
        let message = OSCMessage(path: "/rig/reply")
        message.add(.string(path))
        message.add(reply.body["ok"] ?? .bool(false))
        message.add(reply.body["error"] ?? .string(""))
        send(message)
    }

    /// The live state as OSC: every field after an action, the position while it moves.
    func feedback(_ state: LiveState, full: Bool) {
        let keys = full ? ["state", "offset", "speed", "script", "title", "mode", "outer", "blanked"] : ["offset"]
        for key in keys {
            let message = OSCMessage(path: "/rig/\(key)")
            message.add(state.json[key] ?? .null)
            send(message)
        }
        if full {
            let message = OSCMessage(path: "/rig/phase")
            message.add(state.json["game"]?["phase"] ?? .null)
            send(message)
        }
    }

    private func send(_ message: OSCMessage) {
        guard let feedbackPeer else { return }
        let bytes = message.datagram
        _ = feedbackPeer.withSockaddr { address, length in
            sendto(fd, bytes, bytes.count, Int32(MSG_DONTWAIT), address, length)
        }
    }
}
