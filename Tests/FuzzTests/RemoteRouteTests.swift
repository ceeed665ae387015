import Foundation
import Stage
import Testing
@testable import Fuzz
@testable import Kiosk

/// The remote's routing without a server: what the `http` and `osc` fuzz targets run,
/// with the answers the end-to-end tests (RemoteHTTPTests, RemoteOSCTests) see on the wire.
@Suite struct RemoteRouteTests {
    let key = FuzzTarget.remoteKey
    let site = RemoteSite(host: "127.0.0.1", port: 8080)

    /// Routed as the http fuzz target does: signed in by the key in X-Rig-Key or a cookie.
    private func route(_ text: String) -> RemoteRoute? {
        FuzzHTTPRequest.split(Data(text.utf8)).map { request in
            let signedIn = [request.headers["x-rig-key"], request.cookies["rig_device"],
                            request.headers["authorization"].map { String($0.dropFirst("Bearer ".count)) }].contains(key)
            return RemoteRoute.of(request, signedIn: signedIn, site: site)
        }
    }

    @Test func apiPathsQueriesAndBodiesBecomeCommands() {
        let header = "X-Rig-Key: \(key)\r\n"
        #expect(route("POST /api/speed/90 HTTP/1.1\r\n\(header)\r\n") == .command(["cmd": "speed", "value": 90]))
        #expect(route("POST /api/outer?on=false HTTP/1.1\r\n\(header)\r\n") == .command(["cmd": "outer", "on": false]))
        #expect(route("POST /api/speak HTTP/1.1\r\n\(header)\r\n{\"text\":\"a b\"}")
            == .command(["cmd": "speak", "text": "a b"]))
        #expect(route("POST /api/scripts?search=intro+talk%21 HTTP/1.1\r\n\(header)\r\n")
            == .command(["cmd": "scripts", "search": "intro talk!"]))
        #expect(route("POST /api/game/verdict/pass HTTP/1.1\r\nAuthorization: Bearer \(key)\r\n\r\n")
            == .command(["cmd": "game", "action": "verdict", "verdict": "pass"]))
        #expect(route("POST /api/speed HTTP/1.1\r\n\(header)\r\n[1,2]") == .badBody)
        #expect(route("POST /api/ HTTP/1.1\r\n\(header)\r\n") == .apiUsage)
        #expect(route("GET /api/events HTTP/1.1\r\nCookie: a=1; rig_device=\(key)\r\n\r\n") == .events)
        // GET reads: status and lists, never a change.
        #expect(route("GET /api/status HTTP/1.1\r\n\(header)\r\n") == .command(["cmd": "status"]))
        #expect(route("GET /api/clips HTTP/1.1\r\n\(header)\r\n") == .command(["cmd": "clips"]))
        #expect(route("GET /api/play HTTP/1.1\r\n\(header)\r\n") == .methodNotAllowed("play changes the rig: send it with POST"))
        #expect(route("GET /api/clips/delete/x HTTP/1.1\r\n\(header)\r\n")
            == .methodNotAllowed("clips changes the rig: send it with POST"))
    }

    @Test func theHostAndTheOriginMustBeTheRigsOwn() {
        let header = "X-Rig-Key: \(key)\r\n"
        #expect(route("POST /api/play HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nOrigin: http://127.0.0.1:8080\r\n\(header)\r\n")
            == .command(["cmd": "play"]))
        #expect(route("POST /api/play HTTP/1.1\r\nHost: localhost:8080\r\n\(header)\r\n") == .command(["cmd": "play"]))
        for extra in ["Host: rig.evil.example:8080", "Host: 127.0.0.1:9", "Host: 10.0.0.1:8080", "Origin: null",
                      "Origin: http://127.0.0.1:8081", "Origin: https://127.0.0.1:8080", "Referer: http://a.example/x"] {
            guard case .foreign? = route("POST /api/play HTTP/1.1\r\n\(extra)\r\n\(header)\r\n") else {
                Issue.record("\(extra) was let through")
                continue
            }
        }
        let any = RemoteSite(host: nil, port: 8080)
        #expect(any.owns(authority: "192.168.1.20:8080") && any.owns(authority: "[fe80::1]:8080"))
        #expect(!any.owns(authority: "rig.example:8080"))
    }

    @Test func theTokenAndTheMethodAreCheckedFirst() {
        #expect(route("POST /api/speed/55 HTTP/1.1\r\nX-Rig-Key: wrong\r\n\r\n") == .unpaired(api: true))
        #expect(route("GET / HTTP/1.1\r\n\r\n") == .unpaired(api: false))
        #expect(route("GET /pair?code=abc HTTP/1.1\r\n\r\n") == .pairPage(code: "abc"))
        #expect(route("POST /pair HTTP/1.1\r\n\r\ncode=abc&name=Ann%27s+phone") == .pair(code: "abc", name: "Ann's phone"))
        #expect(route("POST /pair HTTP/1.1\r\n\r\n{\"code\":\"abc\",\"name\":\"Bo\"}") == .pair(code: "abc", name: "Bo"))
        #expect(route("DELETE /api/stop HTTP/1.1\r\nX-Rig-Key: \(key)\r\n\r\n")
            == .methodNotAllowed("only GET (to read) and POST (to change)"))
        // A NUL ends the path where libmicrohttpd decodes it.
        #expect(route("GET /index.html%00/../secret.html HTTP/1.1\r\nX-Rig-Key: \(key)\r\n\r\n")
            == .page("/index.html"))
    }

    @Test func networkRequestsRefuseWhatIsTheRigs() {
        let refused: [JSONValue] = [
            ["cmd": "hang"], ["cmd": "listen", "path": "/etc/passwd"], ["cmd": "warp"],
            ["cmd": "game", "action": "consent", "player": "Ann"],
            ["cmd": "game", "action": "consent", "player": "Ann", "agreed": "norecord"],
            ["cmd": "game", "action": "delete-media"], ["cmd": "game", "action": "end", "delete_media": "yes"],
            ["cmd": "clips", "action": "delete", "id": "x"], ["cmd": "clips", "action": "export", "id": "x", "to": "/etc"],
            ["cmd": "clips", "action": "export", "id": "x", "to": "/media/stick/../../etc"],
            ["cmd": "remote", "action": "pair"], ["cmd": "remote", "action": "revoke", "id": "a"],
        ]
        for json in refused {
            guard case .failure = RemoteRoute.controlRequest(json, destinations: ["/media/stick"]) else {
                Issue.record("\(json.serialized) was accepted")
                continue
            }
        }
        let export: JSONValue = ["cmd": "clips", "action": "export", "id": "x", "to": "/media/stick/"]
        #expect((try? RemoteRoute.controlRequest(export, destinations: ["/media/stick"]).get())
            == .clips(action: "export", id: "x", to: "/media/stick/"))
        #expect((try? RemoteRoute.controlRequest(["cmd": "play"], destinations: []).get()) == .play)
        #expect((try? RemoteRoute.controlRequest(["cmd": "game", "action": "end"], destinations: []).get()) != nil)
        #expect(RemoteRoute.oscLimited(["cmd": "game", "action": "verdict"]) && !RemoteRoute.oscLimited(["cmd": "open"]))
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
        let signedIn: (String?) -> Bool = { $0 == key }
        #expect(RemoteRoute.of(path: "/rig/speed", arguments: [.int(55)], signedIn: signedIn) == nil)
        #expect(RemoteRoute.of(path: "/other/speed", arguments: [.int(55), .string(key)], signedIn: signedIn) == .badAddress)
        #expect(RemoteRoute.of(path: "/rig/blank/on", arguments: [.string(key)], signedIn: signedIn)
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
