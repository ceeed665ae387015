import Foundation
import Glibc
import Stage
import Testing
@testable import Kiosk


extension RemoteEndToEnd {
    /// The HTTP API end to end against a real headless kiosk on loopback: every action
    /// changes the state the Unix socket reports (one handler behind both), and every
    /// kind of bad request is refused while the kiosk keeps serving, unchanged.
    @Suite(.serialized) struct RemoteHTTPTests {
        @Test func everyActionChangesTheState() throws {
            let kiosk = try RemoteKiosk()
            #expect(kiosk.http("POST", "/api/open/long.md")?.status == 200)
            #expect(kiosk.prompter?["script"]?.stringValue == "long.md")
            #expect(kiosk.http("POST", "/api/play")?.status == 200)
            #expect(kiosk.prompter?["state"]?.stringValue == "playing")
            #expect(kiosk.http("GET", "/api/pause")?.status == 200)
            #expect(kiosk.prompter?["state"]?.stringValue == "paused")
            #expect(kiosk.http("POST", "/api/toggle")?.status == 200)
            #expect(kiosk.prompter?["state"]?.stringValue == "playing")
            #expect(kiosk.http("POST", "/api/speed/90")?.status == 200)
            #expect(kiosk.prompter?["speed"]?.numberValue == 90)
            #expect(kiosk.http("POST", "/api/speed?value=120")?.status == 200)
            #expect(kiosk.prompter?["speed"]?.numberValue == 120)
            #expect(kiosk.http("POST", "/api/speed", body: Data("{\"value\":80}".utf8))?.status == 200)
            #expect(kiosk.prompter?["speed"]?.numberValue == 80)
            #expect(kiosk.http("POST", "/api/faster")?.status == 200)
            let faster = kiosk.prompter?["speed"]?.numberValue ?? 0
            #expect(faster > 80)
            #expect(kiosk.http("POST", "/api/slower")?.status == 200)
            #expect((kiosk.prompter?["speed"]?.numberValue ?? 0) < faster)
            #expect(kiosk.http("POST", "/api/stop")?.status == 200)
            #expect(kiosk.prompter?["state"]?.stringValue == "stopped")
            #expect(kiosk.http("POST", "/api/outer/off")?.status == 200)
            #expect(kiosk.status()?["displays"]?["outer"]?["enabled"]?.boolValue == false)
            #expect(kiosk.http("POST", "/api/outer?on=true")?.status == 200)
            #expect(kiosk.status()?["displays"]?["outer"]?["enabled"]?.boolValue == true)
            #expect(kiosk.http("POST", "/api/blank/on")?.status == 200)
            #expect(kiosk.prompter?["blanked"]?.boolValue == true)
            #expect(kiosk.http("POST", "/api/blank/off")?.status == 200)
            #expect(kiosk.http("POST", "/api/set?key=prompter.mirror&value=true")?.status == 200)
            #expect(kiosk.status()?["settings"]?["mirror"]?.boolValue == true)
            #expect(kiosk.http("POST", "/api/mode/library")?.status == 200)
            #expect(kiosk.status()?["mode"]?.stringValue == "library")
            #expect(kiosk.http("POST", "/api/mode/prompter")?.status == 200)
            let scripts = kiosk.json("GET", "/api/scripts")?["scripts"]
            guard case let .array(items)? = scripts else { Issue.record("no script list"); return }
            #expect(Set(items.compactMap { $0["id"]?.stringValue }) == ["long.md", "short.md"])
            #expect(kiosk.http("POST", "/api/game/setup?players=Ann,Bob")?.status == 200)
            #expect(kiosk.status()?["game"]?["open"]?.boolValue == true)
            #expect(kiosk.status()?["game"]?["phase"]?.stringValue != nil)
            #expect(kiosk.http("POST", "/api/game/leave")?.status == 200)
            #expect(kiosk.status()?["game"]?["open"]?.boolValue == false)
            // A refusal of the handler is the socket's refusal, word for word.
            let remote = kiosk.http("POST", "/api/open/missing.md")
            #expect(remote?.status == 409)
            let local = kiosk.control(.open("missing.md"))
            #expect(remote.flatMap { JSONValue.parse(Data($0.body.utf8)) } == local)
        }

        @Test func statusIsTheSocketsStatus() throws {
            let kiosk = try RemoteKiosk()
            let reply = kiosk.http("GET", "/api/status")
            #expect(reply?.status == 200)
            #expect(reply?.headers["content-type"] == "application/json")
            let status = reply.flatMap { JSONValue.parse(Data($0.body.utf8)) }
            #expect(status?["ok"]?.boolValue == true)
            #expect(status?["prompter"]?["speed"]?.numberValue == 100)
            #expect(status?["remote"]?["http"]?.stringValue == "127.0.0.1:\(kiosk.httpPort)")
            // The pairing address is the inner display's banner line; the remote object
            // never carries the token.
            let line = "remote control: pair at http://127.0.0.1:\(kiosk.httpPort)/pair?token=\(RemoteKiosk.token)"
            #expect(status?["problems"] == .array([.string(line)]))
            #expect(status?["remote"]?.serialized.contains(RemoteKiosk.token) == false)
        }

        @Test func missingOrWrongTokensAreRefusedAndChangeNothing() throws {
            let kiosk = try RemoteKiosk()
            for token in [nil, "", "wrong", RemoteKiosk.token + "x", String(RemoteKiosk.token.dropLast())] {
                #expect(kiosk.http("POST", "/api/speed/55", token: token)?.status == 401, "token \(token ?? "none")")
                #expect(kiosk.http("GET", "/api/status", token: token)?.status == 401)
                #expect(kiosk.http("GET", "/", token: token)?.status == 401)
            }
            #expect(kiosk.http("POST", "/api/speed/55", token: nil, headers: ["Cookie: rig_token=nope"])?.status == 401)
            #expect(kiosk.http("GET", "/pair?token=nope", token: nil)?.status == 401)
            #expect(kiosk.prompter?["speed"]?.numberValue == 100)
            // The right token in each of the three places works.
            #expect(kiosk.http("POST", "/api/speed/70", token: nil, headers: ["Authorization: Bearer \(RemoteKiosk.token)"])?.status == 200)
            let paired = kiosk.http("GET", "/pair?token=\(RemoteKiosk.token)", token: nil)
            #expect(paired?.status == 303)
            let cookie = paired?.headers["set-cookie"]?.split(separator: ";").first.map(String.init) ?? ""
            #expect(cookie == "rig_token=\(RemoteKiosk.token)")
            #expect(kiosk.http("POST", "/api/speed/75", token: nil, headers: ["Cookie: \(cookie)"])?.status == 200)
            #expect(kiosk.prompter?["speed"]?.numberValue == 75)
        }

        @Test func garbageHugeBodiesAndTraversalAreRefused() throws {
            let kiosk = try RemoteKiosk()
            // Garbage instead of a request line.
            let garbage = try RawHTTP(port: kiosk.httpPort)
            garbage.send(Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }))
            let reply = garbage.readReply(timeout: 5)
            #expect(reply == nil || (reply?.status ?? 0) >= 400)
            #expect(kiosk.stillServing)
            // Bodies that are not a JSON object, and unknown commands.
            #expect(kiosk.http("POST", "/api/speed", body: Data("not json".utf8))?.status == 400)
            #expect(kiosk.http("POST", "/api/speed", body: Data("[1,2]".utf8))?.status == 400)
            #expect(kiosk.http("POST", "/api/warp")?.status == 400)
            #expect(kiosk.http("POST", "/api/speed/fast")?.status == 400)
            #expect(kiosk.http("POST", "/api/hang")?.status == 400)
            // 10 MB: refused as soon as its length is known, before it is read.
            let started = Date()
            let huge = kiosk.http("POST", "/api/speed", body: Data(repeating: UInt8(ascii: " "), count: 10 << 20))
            #expect(huge == nil || huge?.status == 413)
            #expect(Date().timeIntervalSince(started) < 5)
            // The same without a length (chunked): cut off at the limit.
            let chunked = try RawHTTP(port: kiosk.httpPort)
            chunked.send("POST /api/speed HTTP/1.1\r\nHost: x\r\nX-Rig-Token: \(RemoteKiosk.token)\r\nTransfer-Encoding: chunked\r\n\r\n")
            var cut = false
            for _ in 0..<160 where !cut {
                cut = !chunked.send("10000\r\n" + String(repeating: "a", count: 0x10000) + "\r\n")
            }
            #expect(cut || chunked.readReply(timeout: 2)?.status == 413)
            // Out of the page folder, however spelled.
            for path in ["/../secret.html", "/%2e%2e/secret.html", "/a/../../secret.html", "/..%2fsecret.html",
                         "/.hidden.html", "//etc/passwd", "/page/../../secret.html"] {
                let reply = kiosk.http("GET", path)
                #expect(reply != nil && reply?.status != 200, "\(path) gave \(reply?.status ?? 0)")
                #expect(reply?.body.contains("outside the page folder") != true)
            }
            // A NUL ends the path where libmicrohttpd decodes it: still inside the folder.
            #expect(kiosk.http("GET", "/index.html%00/../../secret.html")?.body.contains("outside the page folder") != true)
            #expect(kiosk.http("GET", "/")?.status == 200)
            #expect(kiosk.prompter?["speed"]?.numberValue == 100)
            #expect(kiosk.stillServing)
        }

        @Test func halfSentRequestsAreCutOffWhileOthersAreServed() throws {
            let kiosk = try RemoteKiosk(extra: "timeout = 2")
            var slow: [RawHTTP] = []
            for index in 0..<6 {
                let client = try RawHTTP(port: kiosk.httpPort)
                client.send(index % 2 == 0 ? "GET /api/status HTTP/1.1\r\nHost: x\r\nX-Rig-" : "POST /api/play HTTP/1.1\r\nContent-Length: 100\r\nX-Rig-Token: \(RemoteKiosk.token)\r\n\r\n{")
                slow.append(client)
            }
            // Meanwhile everyone else is answered at once.
            let started = Date()
            #expect(kiosk.stillServing)
            #expect(Date().timeIntervalSince(started) < 1)
            // Each half request is cut at the idle timeout (2 s here). One that trickles a byte
            // now and then is bounded by the per-address connection limit instead.
            for client in slow { #expect(client.closedByServer(within: 5)) }
            #expect(kiosk.prompter?["state"]?.stringValue == "stopped")
            #expect(kiosk.stillServing)
        }

        @Test func aFloodIsRateLimitedAndTheKioskKeepsServing() throws {
            let kiosk = try RemoteKiosk(extra: "requests_per_second = 50")
            let client = try RawHTTP(port: kiosk.httpPort)
            var statuses: [Int] = []
            for _ in 0..<120 {
                client.send("GET /api/status HTTP/1.1\r\nHost: x\r\nX-Rig-Token: \(RemoteKiosk.token)\r\n\r\n")
                guard let reply = client.readReply() else { break }
                statuses.append(reply.status)
            }
            #expect(statuses.count == 120)
            #expect(statuses.filter { $0 == 429 }.count >= 50)
            #expect(statuses.prefix(40).allSatisfy { $0 == 200 })
            // A second later the bucket has refilled.
            let deadline = Date() + 3
            while Date() < deadline && !kiosk.stillServing { usleep(50_000) }
            #expect(kiosk.stillServing)
        }

        @Test func anotherAddressIsRefused() throws {
            // Only 127.0.0.2 may connect: the test's 127.0.0.1 is turned away at accept.
            let kiosk = try RemoteKiosk(extra: "allow = [\"127.0.0.2\"]")
            let reply = kiosk.http("GET", "/api/status")
            #expect(reply == nil)
            #expect(kiosk.status()?["prompter"] != nil)
        }
    }
}
