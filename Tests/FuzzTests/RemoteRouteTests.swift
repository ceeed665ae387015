import Foundation
import Stage
import Testing
@testable import Fuzz
@testable import Kiosk

/// The remote's routing without a server: what the `http` and `osc` fuzz targets run,
/// with the answers the end-to-end tests (RemoteHTTPTests, RemoteOSCTests) see on the wire.
@Suite struct RemoteRouteTests {
    let token = FuzzTarget.remoteToken

    private func route(_ text: String) -> RemoteRoute? {
        FuzzHTTPRequest.split(Data(text.utf8)).map { RemoteRoute.of($0, token: token) }
    }

    @Test func apiPathsQueriesAndBodiesBecomeCommands() {
        let header = "X-Rig-Token: \(token.value)\r\n"
        #expect(route("POST /api/speed/90 HTTP/1.1\r\n\(header)\r\n") == .command(["cmd": "speed", "value": 90]))
        #expect(route("POST /api/outer?on=false HTTP/1.1\r\n\(header)\r\n") == .command(["cmd": "outer", "on": false]))
        #expect(route("POST /api/speak HTTP/1.1\r\n\(header)\r\n{\"text\":\"a b\"}")
            == .command(["cmd": "speak", "text": "a b"]))
        #expect(route("POST /api/scripts?search=intro+talk%21 HTTP/1.1\r\n\(header)\r\n")
            == .command(["cmd": "scripts", "search": "intro talk!"]))
        #expect(route("POST /api/game/verdict/pass HTTP/1.1\r\nAuthorization: Bearer \(token.value)\r\n\r\n")
            == .command(["cmd": "game", "action": "verdict", "verdict": "pass"]))
        #expect(route("POST /api/speed HTTP/1.1\r\n\(header)\r\n[1,2]") == .badBody)
        #expect(route("POST /api/ HTTP/1.1\r\n\(header)\r\n") == .apiUsage)
        #expect(route("GET /api/events HTTP/1.1\r\nCookie: a=1; rig_token=\(token.value)\r\n\r\n") == .events)
    }

    @Test func theTokenAndTheMethodAreCheckedFirst() {
        #expect(route("POST /api/speed/55 HTTP/1.1\r\nX-Rig-Token: wrong\r\n\r\n") == .unpaired(api: true))
        #expect(route("GET / HTTP/1.1\r\n\r\n") == .unpaired(api: false))
        #expect(route("GET /pair?token=\(token.value) HTTP/1.1\r\n\r\n") == .pair(paired: true))
        #expect(route("GET /pair?token=nope HTTP/1.1\r\n\r\n") == .pair(paired: false))
        #expect(route("DELETE /api/stop HTTP/1.1\r\nX-Rig-Token: \(token.value)\r\n\r\n") == .methodNotAllowed)
        // A NUL ends the path where libmicrohttpd decodes it.
        #expect(route("GET /index.html%00/../secret.html HTTP/1.1\r\nX-Rig-Token: \(token.value)\r\n\r\n")
            == .page("/index.html"))
    }

    @Test func networkRequestsRefuseTheLocalTestAids() {
        for json: JSONValue in [["cmd": "hang"], ["cmd": "listen", "path": "/etc/passwd"], ["cmd": "warp"]] {
            guard case .failure = RemoteRoute.controlRequest(json) else {
                Issue.record("\(json.serialized) was accepted")
                continue
            }
        }
        #expect((try? RemoteRoute.controlRequest(["cmd": "play"]).get()) == .play)
    }

    /// The fuzz target osc's first find: an int32 as the last argument was read as the
    /// 8-byte lo_arg union, past liblo's buffer. Every width reads its own bytes, also when
    /// a 64-bit value follows a 4-byte one (OSC aligns to 4 only).
    @Test func oscArgumentsAreReadAtTheirOwnWidth() throws {
        let int32 = try #require(Self.datagram("fuzz/regressions/osc/int32-argument-read-as-8-bytes.osc"))
        #expect(OSCMessage(datagram: int32)?.arguments == [.int(55)])
        let mixed = Self.pad("/rig/x") + Self.pad(",ihdf") + [0, 0, 0, 7] + [0, 0, 0, 0, 0, 0, 1, 0]
            + Array(withUnsafeBytes(of: (2.5 as Double).bitPattern.bigEndian) { Array($0) })
            + Array(withUnsafeBytes(of: (0.5 as Float).bitPattern.bigEndian) { Array($0) })
        let message = try #require(OSCMessage(datagram: mixed))
        #expect(message.path == "/rig/x")
        #expect(message.arguments == [.int(7), .number(256), .number(2.5), .number(0.5)])
        #expect(RemoteRoute.of(path: "/rig/speed", arguments: [.int(55)], token: token) == nil)
        #expect(RemoteRoute.of(path: "/other/speed", arguments: [.int(55), .string(token.value)], token: token) == .badAddress)
        #expect(RemoteRoute.of(path: "/rig/blank/on", arguments: [.string(token.value)], token: token)
            == .command(["cmd": "blank", "on": true]))
    }

    private static func pad(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8) + [0]
        return bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
    }

    private static func datagram(_ path: String) -> [UInt8]? {
        let url = FuzzRegressionTests.fuzzFolder.deletingLastPathComponent().appendingPathComponent(path)
        return (try? Data(contentsOf: url)).map { [UInt8]($0) }
    }
}
