import Foundation
import Glibc
import Stage
import Testing
@testable import Kiosk


extension RemoteEndToEnd {
    /// OSC over UDP end to end: messages built with liblo (as QLab or Companion would send
    /// them) drive the real kiosk, replies and state feedback come back to the configured
    /// host, and messages without the token or of garbage change nothing.
    @Suite(.serialized) struct RemoteOSCTests {
        /// The test's UDP socket: the OSC feedback host.
        final class Peer {
            let fd: Int32
            let port: UInt16

            init() throws {
                let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                self.fd = fd
                guard let address = SocketAddress(host: "127.0.0.1", port: 0),
                      address.withSockaddr({ bind(fd, $0, $1) }) == 0 else { throw POSIXError(.EADDRINUSE) }
                var storage = sockaddr_in()
                var length = socklen_t(MemoryLayout<sockaddr_in>.size)
                _ = withUnsafeMutablePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
                }
                port = UInt16(bigEndian: storage.sin_port)
            }

            deinit { close(fd) }

            func send(_ path: String, _ arguments: [JSONValue], to port: UInt16) {
                let message = OSCMessage(path: path)
                for argument in arguments { message.add(argument) }
                send(message.datagram, to: port)
            }

            func send(_ bytes: [UInt8], to port: UInt16) {
                guard let address = SocketAddress(host: "127.0.0.1", port: Int(port)) else { return }
                _ = address.withSockaddr { sendto(fd, bytes, bytes.count, 0, $0, $1) }
            }

            /// Messages received until `path` with `wanted` arguments arrives, or `timeout`.
            func wait(for path: String, timeout: Double = 2, _ wanted: ([JSONValue]) -> Bool = { _ in true }) -> [JSONValue]? {
                let deadline = Date() + timeout
                var buffer = [UInt8](repeating: 0, count: 8192)
                while Date() < deadline {
                    var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    guard poll(&ready, 1, 50) > 0 else { continue }
                    let count = recv(fd, &buffer, buffer.count, 0)
                    guard count > 0, let message = OSCMessage(datagram: Array(buffer[0..<count])) else { continue }
                    if message.path == path, wanted(message.arguments) { return message.arguments }
                }
                return nil
            }
        }

        @Test func oscActionsChangeTheStateAndFeedbackComesBack() throws {
            let peer = try Peer()
            let kiosk = try RemoteKiosk(extra: "osc_commands = \"all\"", oscFeedback: peer.port)
            #expect(kiosk.oscPort > 0)
            let token = JSONValue.string(RemoteKiosk.token)
            peer.send("/rig/open", ["long.md", token], to: kiosk.oscPort)
            #expect(peer.wait(for: "/rig/reply") { $0.first == "/rig/open" && $0.dropFirst().first == .number(1) } != nil)
            #expect(kiosk.prompter?["script"]?.stringValue == "long.md")
            peer.send("/rig/play", [token], to: kiosk.oscPort)
            #expect(peer.wait(for: "/rig/state") { $0 == ["playing"] } != nil)
            peer.send("/rig/speed", [.int(90), token], to: kiosk.oscPort)
            #expect(peer.wait(for: "/rig/speed") { $0 == [.int(90)] } != nil)
            #expect(kiosk.prompter?["speed"]?.numberValue == 90)
            peer.send("/rig/speed", [.number(72.0), token], to: kiosk.oscPort)
            #expect(peer.wait(for: "/rig/speed") { $0 == [.int(72)] } != nil)
            peer.send("/rig/faster", [token], to: kiosk.oscPort)
            #expect(peer.wait(for: "/rig/speed") { ($0.first?.numberValue ?? 0) > 72 } != nil)
            peer.send("/rig/pause", [token], to: kiosk.oscPort)
            #expect(peer.wait(for: "/rig/state") { $0 == ["paused"] } != nil)
            peer.send("/rig/outer", [.int(0), token], to: kiosk.oscPort)
            #expect(peer.wait(for: "/rig/outer") { $0 == [.int(0)] } != nil)
            #expect(kiosk.status()?["displays"]?["outer"]?["enabled"]?.boolValue == false)
            peer.send("/rig/blank/on", [token], to: kiosk.oscPort)
            #expect(peer.wait(for: "/rig/blanked") { $0 == [.int(1)] } != nil)
            peer.send("/rig/mode", ["library", token], to: kiosk.oscPort)
            #expect(peer.wait(for: "/rig/mode") { $0 == ["library"] } != nil)
            // The handler's refusal comes back as the reply's error.
            peer.send("/rig/open", ["missing.md", token], to: kiosk.oscPort)
            #expect(peer.wait(for: "/rig/reply") { $0.first == "/rig/open" && $0.dropFirst().first == .number(0) } != nil)
        }

        @Test func oscIsLimitedToTransportSpeedMarkersAndTheGamesCallsByDefault() throws {
            let peer = try Peer()
            let kiosk = try RemoteKiosk(oscFeedback: peer.port)
            let key = JSONValue.string(RemoteKiosk.token)
            #expect(kiosk.control(.open("long.md"))?["ok"]?.boolValue == true)
            peer.send("/rig/speed", [.int(90), key], to: kiosk.oscPort)
            #expect(peer.wait(for: "/rig/reply") { $0.first == "/rig/speed" && $0.dropFirst().first == .number(1) } != nil)
            #expect(kiosk.prompter?["speed"]?.numberValue == 90)
            for (path, arguments) in [("/rig/open", ["short.md"]), ("/rig/outer", [JSONValue.int(0)]),
                                      ("/rig/set", ["prompter.mirror", "true"]), ("/rig/game/setup", [])] {
                peer.send(path, arguments + [key], to: kiosk.oscPort)
                let reply = peer.wait(for: "/rig/reply") { $0.first == .string(path) }
                #expect(reply?.dropFirst().first == .number(0), "\(path) was not refused")
                #expect(reply?.last?.stringValue?.contains("osc_commands") == true)
            }
            #expect(kiosk.prompter?["script"]?.stringValue == "long.md")
            #expect(kiosk.status()?["displays"]?["outer"]?["enabled"]?.boolValue == true)
            #expect(kiosk.status()?["game"]?["open"]?.boolValue == false)
        }

        @Test func oscWithoutTheTokenOrGarbageChangesNothing() throws {
            let peer = try Peer()
            let kiosk = try RemoteKiosk(oscFeedback: peer.port)
            peer.send("/rig/speed", [.int(55)], to: kiosk.oscPort)
            peer.send("/rig/speed", [.int(55), "wrong"], to: kiosk.oscPort)
            peer.send("/rig/hang", [.string(RemoteKiosk.token)], to: kiosk.oscPort)
            peer.send("/other/speed", [.int(55), .string(RemoteKiosk.token)], to: kiosk.oscPort)
            peer.send(Array("garbage that is not OSC at all".utf8), to: kiosk.oscPort)
            peer.send([UInt8](repeating: 0xff, count: 9000), to: kiosk.oscPort)
            peer.send("#bundle", [.int(1)], to: kiosk.oscPort)
            #expect(peer.wait(for: "/rig/reply") { $0.first == "/rig/speed" && $0.dropFirst().first == .number(0) } != nil)
            // Still answering, and nothing changed.
            peer.send("/rig/status", [.string(RemoteKiosk.token)], to: kiosk.oscPort)
            #expect(peer.wait(for: "/rig/reply") { $0.first == "/rig/status" } != nil)
            #expect(kiosk.prompter?["speed"]?.numberValue == 100)
            #expect(kiosk.stillServing)
        }
    }
}
