import Foundation
import Synchronization
import Testing
@testable import Kiosk
@testable import Stage

/// The control socket on a real Unix socket. The loop runs on the test's thread;
/// clients run on their own threads, as `rig ctl` would in its own process.
@Suite struct ControlServerTests {
    private final class Results: Sendable {
        private let state = Mutex<[String]>([])
        private let finished = Mutex(0)
        func add(_ line: String) { state.withLock { $0.append(line) } }
        func done() { finished.withLock { $0 += 1 } }
        var lines: [String] { state.withLock { $0 } }
        var finishedCount: Int { finished.withLock { $0 } }
    }

    private func socketPath() -> String {
        NSTemporaryDirectory() + "rig-ctl-\(UUID().uuidString.prefix(8)).sock"
    }

    /// Runs the loop until `clients` threads have finished, or fails after a deadline.
    private func serve(_ loop: EventLoop, until results: Results, clients: Int) {
        let deadline = MonotonicTime.now() + 60  // generous: sanitizer builds on a busy machine
        while results.finishedCount < clients && MonotonicTime.now() < deadline { loop.runOnce(timeout: 0.05) }
        #expect(results.finishedCount == clients, "clients did not finish in time")
    }

    private func client(_ path: String, _ results: Results, _ body: @escaping @Sendable (ControlConnection) throws -> Void) {
        Thread.detachNewThread {
            defer { results.done() }
            do { try body(try ControlConnection(path: path)) } catch { results.add("client error: \(error)") }
        }
    }

    private func makeServer(_ path: String, _ loop: EventLoop) throws -> ControlServer {
        var speed = 60
        return try ControlServer(path: path, loop: loop) { request in
            switch request {
            case .status: return .success(["speed": .int(speed)])
            case let .speed(value): speed = value; return .success()
            default: return .failure("unsupported in this test")
            }
        }
    }

    @Test func answersRequestsAndAppliesThem() throws {
        let loop = try EventLoop(), path = socketPath(), results = Results()
        let server = try makeServer(path, loop)
        client(path, results) { connection in
            results.add(try connection.request(.speed(90)).serialized)
            results.add(try connection.request(.status).serialized)
        }
        serve(loop, until: results, clients: 1)
        #expect(results.lines == ["{\"ok\":true}", "{\"ok\":true,\"speed\":90}"])
        _ = server
    }

    @Test func socketHasMode0660() throws {
        let loop = try EventLoop(), path = socketPath()
        let server = try makeServer(path, loop)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o660)
        _ = server
    }

    @Test func malformedRequestsGetAnErrorAndChangeNothing() throws {
        let loop = try EventLoop(), path = socketPath(), results = Results()
        let server = try makeServer(path, loop)
        client(path, results) { connection in
            for garbage in ["hello", "{\"cmd\":", "[1,2]", "{\"cmd\":\"speed\"}", "{\"cmd\":\"sped\",\"value\":3}", "\u{00}\u{ff}"] {
                connection.send(raw: Data((garbage + "\n").utf8))
                results.add(try connection.readReply().serialized)
            }
            results.add(try connection.request(.status).serialized)
        }
        serve(loop, until: results, clients: 1)
        let lines = results.lines
        #expect(lines.count == 7)
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("{\"error\":") && $0.hasSuffix("\"ok\":false}") })
        #expect(lines.contains { $0.contains("did you mean \\\"speed\\\"") })
        #expect(lines.last == "{\"ok\":true,\"speed\":60}")
        _ = server
    }

    @Test func aTenMegabyteLineIsRefusedAndTheConnectionGoesOn() throws {
        let loop = try EventLoop(), path = socketPath(), results = Results()
        let server = try makeServer(path, loop)
        client(path, results) { connection in
            connection.send(raw: Data(repeating: UInt8(ascii: "x"), count: 10 * 1024 * 1024) + Data("\n".utf8))
            results.add(try connection.readReply(timeout: 45).serialized)
            results.add(try connection.request(.status).serialized)
        }
        serve(loop, until: results, clients: 1)
        #expect(results.lines.first?.contains("request longer than") == true)
        #expect(results.lines.last == "{\"ok\":true,\"speed\":60}")
        _ = server
    }

    @Test func aClientThatLeavesMidLineDisturbsNoOne() throws {
        let loop = try EventLoop(), path = socketPath(), results = Results()
        let server = try makeServer(path, loop)
        client(path, results) { connection in
            connection.send(raw: Data("{\"cmd\":\"spe".utf8))
        }
        serve(loop, until: results, clients: 1)
        let deadline = MonotonicTime.now() + 5
        while server.clientCount > 0 && MonotonicTime.now() < deadline { loop.runOnce(timeout: 0.05) }
        #expect(server.clientCount == 0)
        client(path, results) { connection in results.add(try connection.request(.status).serialized) }
        serve(loop, until: results, clients: 2)
        #expect(results.lines == ["{\"ok\":true,\"speed\":60}"])
    }

    @Test func servesSeveralClientsAtOnce() throws {
        let loop = try EventLoop(), path = socketPath(), results = Results()
        let server = try makeServer(path, loop)
        for _ in 0..<8 {
            client(path, results) { connection in
                for _ in 0..<5 { results.add(try connection.request(.status).serialized) }
            }
        }
        serve(loop, until: results, clients: 8)
        #expect(results.lines.count == 40)
        #expect(Set(results.lines) == ["{\"ok\":true,\"speed\":60}"])
        _ = server
    }

    @Test func ctlParsesEveryRequest() throws {
        func parse(_ words: [String]) throws -> ControlRequest {
            var arguments = Arguments(words)
            return try CtlCommand.parseRequest(&arguments, search: nil)
        }
        #expect(try parse(["status"]) == .status)
        #expect(try parse(["speed", "90"]) == .speed(90))
        #expect(try parse(["outer", "off"]) == .outer(false))
        #expect(try parse(["blank", "on"]) == .blank(true))
        #expect(try parse(["set", "prompter.mirror=true"]) == .set(key: "prompter.mirror", value: "true"))
        #expect(try parse(["open", "news/intro.md"]) == .open("news/intro.md"))
        #expect(throws: CLIError.self) { try parse(["speed", "fast"]) }
        #expect(throws: CLIError.self) { try parse(["outer", "maybe"]) }
        #expect(try parse(["game", "select", "card=hands.wave", "rule=simon"])
            == .game(["cmd": "game", "action": "select", "card": "hands.wave", "rule": "simon"]))
        #expect(try parse(["game", "end", "--delete-media"])
            == .game(["cmd": "game", "action": "end", "delete_media": "yes"]))
        #expect(try parse(["game", "end", "delete_media=yes"])
            == .game(["cmd": "game", "action": "end", "delete_media": "yes"]))
        #expect(try parse(["game", "delete-media"]) == .game(["cmd": "game", "action": "delete-media"]))
        #expect(throws: CLIError.self) {
            try parse(["game", "next", "--delete-media"])
        }
        #expect(throws: CLIError.self) { try parse(["game", "setup", "players"]) }
        #expect(throws: CLIError.self) { try parse(["game"]) }
        for request in [ControlRequest.status, .play, .pause, .toggle, .stop, .faster, .slower, .speed(5),
                        .open("a"), .outer(true), .blank(false), .set(key: "k", value: "v"),
                        .scripts(search: "q"), .mode("framing"), .cue("S"), .cue(nil),
                        .game(["cmd": "game", "action": "send"])] {
            let line = Data(request.json.serialized.utf8)
            #expect(try ControlRequest.parse(line).get() == request)
        }
    }
}
