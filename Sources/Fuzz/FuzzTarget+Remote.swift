import Foundation
import Kiosk
import Stage

/// The network remote's targets: `http` (a request after libmicrohttpd's split, through
/// the rig's routing, site check, body JSON and command mapping) and `osc` (a datagram
/// through liblo's decoder, as OSCServer receives it, and the same mapping).
extension FuzzTarget {
    /// The key the seeds carry (fuzz/corpus/http, fuzz/corpus/osc, fuzz/dict/remote.dict),
    /// so the fuzzer gets past the credential check.
    static let remoteKey = "fuzz-token-0123456789"
    private static let site = RemoteSite(host: "127.0.0.1", port: 8080)

    /// What the file outside the page folder holds (a literal: a Data held in a static
    /// keeps its storage behind tagged bits, which LeakSanitizer reports as a leak).
    private static let secret = "outside the page folder\n"

    /// A page folder with one file, next to a file outside it that must never be served
    /// (and a symlink inside pointing to it).
    private static let page: RemotePage = {
        let root = scratch.appendingPathComponent("page")
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try? Data("<!doctype html><title>rig</title>\n".utf8).write(to: root.appendingPathComponent("index.html"))
        try? Data(secret.utf8).write(to: scratch.appendingPathComponent("secret.html"))
        try? FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("link.html").path,
                                                    withDestinationPath: "../secret.html")
        return RemotePage(configured: root.path)
    }()

    static func http(_ data: Data) {
        guard let request = FuzzHTTPRequest.split(data) else { return }
        let signedIn = [request.headers["x-rig-key"], request.cookies["rig_device"]]
            .contains(remoteKey)
        switch RemoteRoute.of(request, signedIn: signedIn, site: site) {
        case let .command(json): command(json)
        case let .page(path):
            if case let .file(served, _) = page.lookup(path) {
                precondition(served != Data(secret.utf8), "the remote served a file outside its page folder for \(path)")
            }
        default: break
        }
    }

    static func osc(_ data: Data) {
        guard let message = OSCMessage(datagram: [UInt8](data)) else { return }
        let arguments = message.arguments
        if case let .command(json)? = RemoteRoute.of(path: message.path, arguments: arguments, signedIn: { $0 == remoteKey }) {
            command(json)
        }
        // The reply names the address it answers: it must decode back to the same.
        let reply = OSCMessage(path: "/rig/reply")
        reply.add(.string(message.path))
        reply.add(.bool(false))
        let echoed = OSCMessage(datagram: reply.datagram)
        precondition(echoed?.path == "/rig/reply" && echoed?.arguments.first == .string(message.path),
                     "an OSC reply did not decode back to the address it answers")
    }

    /// What the kiosk's one handler would receive (it is not called: it needs the app).
    private static func command(_ json: JSONValue) {
        guard case let .success(request) = RemoteRoute.controlRequest(json, destinations: ["/media/stick"]) else { return }
        keep(request.json.serialized)
        if case let .game(body) = request { keep(GameControlRequest.parse(body)) }
    }
}
