import Foundation
import Render
import Stage
import Synchronization
import Testing
@testable import Kiosk

/// A remote bound to "auto" or an interface follows the address a lease gives it: on
/// the real event loop, with the address the host looks up fed by the test (a second
/// loopback address stands for the new lease), and the service really listening.
@Suite(.serialized) struct RemoteHostTests {
    final class Lease: @unchecked Sendable {
        let address = Mutex<String?>(nil)
    }

    @Test func theRemoteMovesWithTheLeaseAndWaitsWithoutOne() throws {
        let loop = try EventLoop()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rig-host-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let stage = ManualClockStage(settings: RigStage.Settings(outerSize: PixelSize(width: 64, height: 36)),
                                     innerSize: PixelSize(width: 64, height: 36), fonts: nil, start: 0).stage
        var config = RigConfig()
        config.remote.enabled = true
        config.remote.bind = "eth9"
        config.remote.port = 0
        config.state.dir = folder.path
        let lease = Lease()
        let host = RemoteHost(config: config, loop: loop, stage: stage, lookEvery: 0.05) { _ in
            lease.address.withLock { $0 }
        }
        host.start()
        #expect(host.service == nil)
        #expect(stage.status(at: 0)["problems"]?.serialized.contains("waiting for an address on eth9") == true)

        func run(until condition: () -> Bool) -> Bool {
            let deadline = loop.clock() + 5
            while !condition() && loop.clock() < deadline { loop.runOnce(timeout: 0.02) }
            return condition()
        }
        /// A request answered while the loop runs here: its status, nil for no answer.
        func ask(port: UInt16, host address: String) -> Int? {
            let reply = Mutex<Int??>(nil)
            Thread {
                let status = (try? RawHTTP(port: port, host: address)).flatMap { client -> Int? in
                    client.send("GET /api/status HTTP/1.1\r\nHost: \(address)\r\nConnection: close\r\n\r\n")
                    return client.readReply(timeout: 3)?.status
                }
                reply.withLock { $0 = .some(status) }
            }.start()
            _ = run { reply.withLock { $0 } != nil }
            return reply.withLock { $0 } ?? nil
        }

        lease.address.withLock { $0 = "127.0.0.1" }
        #expect(run { host.service?.http.address.host == "127.0.0.1" })
        #expect(stage.remoteAccess != nil)
        let port = host.service?.http.address.port ?? 0
        #expect(ask(port: port, host: "127.0.0.1") == 401)

        lease.address.withLock { $0 = "127.0.0.2" }
        #expect(run { host.service?.http.address.host == "127.0.0.2" })
        // The old address is closed: the remote moved.
        #expect(ask(port: port, host: "127.0.0.1") == nil)
        let moved = host.service?.http.address.port ?? 0
        #expect(ask(port: moved, host: "127.0.0.2") == 401)

        lease.address.withLock { $0 = nil }
        #expect(run { host.service == nil })
        #expect(stage.remoteAccess == nil)
        host.stop()
    }
}
