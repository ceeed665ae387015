import Foundation
import Glibc
import Stage
import Testing
@testable import Kiosk

extension RemoteEndToEnd {
    /// The remote on a shared network, against a real headless kiosk: a phone pairs once
    /// with the one-time code and gets its own credential, which revocation ends; another
    /// site's page, a GET and OSC cannot change what they must not; one address cannot
    /// hold the server's connections. Each attack fails against a kiosk without the defence.
    @Suite(.serialized) struct RemoteAccessTests {
        /// Pairs like the phone's browser: the address from `rig ctl remote pair`, its form
        /// posted from the rig's own page. The cookie, or nil.
        private func pair(_ kiosk: RemoteKiosk, name: String) -> (cookie: String, reply: RawHTTP.Reply?)? {
            guard let address = kiosk.control(.remote(action: "pair", id: nil))?["pair"]?.stringValue,
                  let code = address.split(separator: "=").last else { return nil }
            let origin = "Origin: http://127.0.0.1:\(kiosk.httpPort)"
            let reply = kiosk.http("POST", "/pair", token: nil, body: Data("code=\(code)&name=\(name)".utf8),
                                   headers: [origin, "Content-Type: application/x-www-form-urlencoded"])
            let cookie = reply?.headers["set-cookie"]?.split(separator: ";").first.map(String.init)
            return cookie.map { ($0, reply) }
        }

        @Test func aPhonePairsOnceWithItsOwnCredentialAndRevokingItLocksItOut() throws {
            let kiosk = try RemoteKiosk()
            let address = kiosk.control(.remote(action: "pair", id: nil))?["pair"]?.stringValue ?? ""
            let code = String(address.split(separator: "=").last ?? "")
            #expect(code.count == 32)
            // Opening the address only shows the form: nothing is paired by a GET.
            let page = kiosk.http("GET", "/pair?code=\(code)", token: nil)
            #expect(page?.status == 200 && page?.body.contains("Pair this phone") == true)
            #expect(page?.headers["set-cookie"] == nil)
            let body = Data("code=\(code)&name=Ann%27s+phone".utf8)
            let paired = kiosk.http("POST", "/pair", token: nil, body: body, headers: ["Content-Type: application/x-www-form-urlencoded"])
            #expect(paired?.status == 303)
            let setCookie = paired?.headers["set-cookie"] ?? ""
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"))
            let cookie = String(setCookie.split(separator: ";").first ?? "")
            #expect(cookie.hasPrefix("rig_device=") && !cookie.contains(code))
            // The code was spent: a second phone (or a replay) cannot use it.
            #expect(kiosk.http("POST", "/pair", token: nil, body: body)?.status == 401)
            #expect(kiosk.http("POST", "/api/speed/70", token: nil, headers: ["Cookie: \(cookie)"])?.status == 200)
            #expect(kiosk.prompter?["speed"]?.numberValue == 70)
            // The rig lists it by name and fingerprint; neither the status nor the journal
            // holds the credential, the code or the API key.
            let devices = kiosk.control(.remote(action: "devices", id: nil))?["remote"]?["devices"]
            guard case let .array(list)? = devices, let id = list.first?["id"]?.stringValue else {
                Issue.record("no device listed: \(String(describing: devices))")
                return
            }
            #expect(list.first?["name"]?.stringValue == "Ann's phone")
            let stream = try EventStreamReader(port: kiosk.httpPort, token: nil, cookie: cookie)
            #expect(stream.next(timeout: 5) != nil)
            let secret = String(cookie.dropFirst("rig_device=".count))
            let log = (try? String(contentsOf: kiosk.log, encoding: .utf8)) ?? ""
            #expect(log.contains("paired phone \"Ann's phone\" (\(id))"))
            for text in [kiosk.status()?.serialized ?? "", log] {
                for hidden in [secret, code, RemoteKiosk.token] { #expect(!text.contains(hidden)) }
            }
            // Revoked at the rig: the captured cookie opens nothing, its stream ends.
            #expect(kiosk.control(.remote(action: "revoke", id: id))?["ok"]?.boolValue == true)
            #expect(kiosk.http("POST", "/api/speed/80", token: nil, headers: ["Cookie: \(cookie)"])?.status == 401)
            #expect(kiosk.http("GET", "/api/status", token: nil, headers: ["Cookie: \(cookie)"])?.status == 401)
            #expect(kiosk.prompter?["speed"]?.numberValue == 70)
            #expect(stream.client.closedByServer(within: 5))
            // Over the network nobody pairs or revokes.
            #expect(kiosk.http("POST", "/api/remote/pair")?.status == 403)
        }

        @Test func aPairingIsKeptInTheStateFolderAsADigestOnly() throws {
            let kiosk = try RemoteKiosk()
            guard let (cookie, _) = pair(kiosk, name: "Bo") else { Issue.record("no pairing"); return }
            let file = kiosk.folder.appendingPathComponent("state/remote-devices.json")
            let stored = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            #expect(stored.contains("\"Bo\""))
            #expect(!stored.contains(String(cookie.dropFirst("rig_device=".count))))
        }

        @Test func anotherSitesPageAndAnotherHostNameAreRefused() throws {
            let kiosk = try RemoteKiosk()
            let own = "http://127.0.0.1:\(kiosk.httpPort)"
            for header in ["Origin: http://evil.example", "Origin: null", "Origin: http://127.0.0.1:1",
                           "Referer: http://evil.example/page.html", "Host: evil.example:\(kiosk.httpPort)"] {
                let reply = kiosk.http("POST", "/api/speed/55", headers: [header])
                #expect(reply?.status == 403, "\(header) gave \(reply?.status ?? 0)")
            }
            #expect(kiosk.prompter?["speed"]?.numberValue == 100)
            #expect(kiosk.http("POST", "/api/speed/60", headers: ["Origin: \(own)"])?.status == 200)
            #expect(kiosk.http("POST", "/api/speed/65", headers: ["Referer: \(own)/index.html"])?.status == 200)
            #expect(kiosk.prompter?["speed"]?.numberValue == 65)
        }

        @Test func onlyPostChangesAnything() throws {
            let kiosk = try RemoteKiosk()
            #expect(kiosk.control(.open("long.md"))?["ok"]?.boolValue == true)
            for path in ["/api/play", "/api/speed/55", "/api/open/short.md", "/api/game/setup?players=Ann",
                         "/api/game/consent/Ann", "/api/clips/delete/x", "/api/marker/next"] {
                let reply = kiosk.http("GET", path)
                #expect(reply?.status == 405, "GET \(path) gave \(reply?.status ?? 0)")
            }
            #expect(kiosk.prompter?["state"]?.stringValue == "stopped")
            #expect(kiosk.prompter?["speed"]?.numberValue == 100)
            #expect(kiosk.prompter?["script"]?.stringValue == "long.md")
            #expect(kiosk.status()?["game"]?["open"]?.boolValue == false)
            for path in ["/api/status", "/api/scripts", "/api/folders", "/api/clips", "/api/game/status", "/api/marker"] {
                #expect(kiosk.http("GET", path)?.status == 200, "GET \(path)")
            }
        }

        @Test func consentDeletionExportsElsewhereAndFilesAreNotTheNetworks() throws {
            let peer = try RemoteOSCTests.Peer()
            let kiosk = try RemoteKiosk(extra: "osc_commands = \"all\"", oscFeedback: peer.port)
            #expect(kiosk.http("POST", "/api/game/setup?players=Ann,Bo")?.status == 200)
            for path in ["/api/game/consent/Ann", "/api/game/consent?player=Ann&agreed=norecord", "/api/game/delete-media",
                         "/api/game/end?delete_media=yes", "/api/clips/delete?id=x", "/api/clips/export?id=x&to=/etc",
                         "/api/listen?path=/etc/passwd"] {
                let reply = kiosk.http("POST", path)
                #expect(reply?.status == 403, "POST \(path) gave \(reply?.status ?? 0): \(reply?.body ?? "")")
            }
            let consent = kiosk.http("POST", "/api/game/consent/Ann")?.body ?? ""
            #expect(consent.contains("at the rig"))
            peer.send("/rig/game/consent", ["Ann", .string(RemoteKiosk.token)], to: kiosk.oscPort)
            let reply = peer.wait(for: "/rig/reply") { $0.first == "/rig/game/consent" }
            #expect(reply?.dropFirst().first == .number(0))
            #expect(reply?.last?.stringValue?.contains("at the rig") == true)
            #expect(kiosk.status()?["game"]?["consent"]?["Ann"]?.stringValue == "unasked")
            // At the rig the same consent is taken.
            #expect(kiosk.control(.game(["cmd": "game", "action": "consent", "player": "Ann"]))?["ok"]?.boolValue == true)
            #expect(kiosk.status()?["game"]?["consent"]?["Ann"]?.stringValue == "agreed")
        }

        @Test func seventyIdleStreamsFromOneAddressLockNobodyOut() throws {
            let kiosk = try RemoteKiosk()
            var streams: [EventStreamReader] = []
            for _ in 0..<70 {
                let stream = try EventStreamReader(port: kiosk.httpPort, token: RemoteKiosk.token)
                streams.append(stream)
                // Each is answered (or, past the address's share, an older one is ended).
                _ = stream.next(timeout: 2)
            }
            // The ended ones close as libmicrohttpd finishes them.
            var open = -1
            let deadline = Date() + 5
            repeat {
                open = Int(kiosk.status()?["remote"]?["streams"]?.numberValue ?? -1)
            } while !(1...8).contains(open) && Date() < deadline && usleep(20_000) == 0
            #expect((1...8).contains(open), "\(open) streams open from one address")
            // A second address (the phone) and the first one itself are still answered.
            let other = RawHTTP.request(port: kiosk.httpPort, "GET", "/api/status", token: RemoteKiosk.token, source: "127.0.0.2")
            #expect(other?.status == 200)
            #expect(kiosk.http("GET", "/api/status")?.status == 200)
            let fresh = try EventStreamReader(port: kiosk.httpPort, token: RemoteKiosk.token, source: "127.0.0.2")
            #expect(fresh.next(timeout: 5) != nil)
            // The newest of the first address's streams is one of those still open.
            #expect(streams.last?.client.closedByServer(within: 0.2) == false)
        }
    }
}
