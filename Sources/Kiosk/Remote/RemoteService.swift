import Foundation
import Stage

/// `[remote]`: the HTTP API, the live event stream, OSC and the phone page, all on the
/// kiosk's event loop. Every action goes through `handle`, the same function the Unix
/// control socket calls, so both mean exactly the same.
final class RemoteService {
    typealias Handler = (ControlRequest) -> ControlReply

    let token: PairingToken
    let http: HTTPServer
    private(set) var osc: OSCServer?
    let page: RemotePage
    private let loop: EventLoop
    private let handle: Handler
    private let status: () -> JSONValue
    private var limiter: RateLimiter
    private let publisher: LivePublisher

    init(config: RigConfig.Remote, loop: EventLoop, status: @escaping () -> JSONValue,
         handle: @escaping Handler) throws {
        self.loop = loop
        self.handle = handle
        self.status = status
        token = PairingToken(configured: config.token)
        limiter = RateLimiter(rate: config.requestsPerSecond)
        page = RemotePage(configured: config.pageDir)
        guard let address = SocketAddress(host: config.bind, port: config.port) else {
            throw HTTPServer.Failure.start(config.bind)
        }
        let allow = config.allowList
        let accepts: (SocketAddress) -> Bool = { peer in allow.contains { $0.contains(peer) } }
        var limits = HTTPServer.Limits()
        limits.maxBodyBytes = config.maxBodyKB * 1024
        limits.timeoutSeconds = config.timeout
        limits.maxConnections = config.maxConnections
        limits.maxConnectionsPerAddress = config.maxConnectionsPerAddress
        publisher = LivePublisher(loop: loop, status: status)
        var route: (HTTPRequest) -> HTTPResponse = { _ in .json(503, JSONValueText(text: "{\"ok\":false}")) }
        http = try HTTPServer(address: address, limits: limits, loop: loop, accepts: accepts) { route($0) }
        route = { [unowned self] in self.answer($0) }
        if config.osc {
            guard let oscAddress = SocketAddress(host: config.bind, port: config.oscPort) else { return }
            let feedback = SocketAddress(parsing: config.oscFeedback)
            osc = try OSCServer(address: oscAddress, feedback: feedback, token: token, loop: loop, accepts: accepts) {
                [unowned self] request in self.perform(request)
            }
            if let osc, feedback != nil { publisher.osc = osc }
        }
    }

    /// Where to pair a phone: the line shown on the inner display.
    var pairingURL: String {
        let host = http.address.isIPv4 ? http.address.host : "[\(http.address.host)]"
        return "http://\(host):\(http.address.port)/pair?token=\(token.value)"
    }

    /// `rig ctl status`'s `remote` object (never the token).
    var statusJSON: JSONValue {
        [
            "http": .string("\(http.address)"),
            "osc": osc.map { .string("\($0.address)") } ?? .null,
            "streams": .int(http.streams.count),
        ]
    }

    /// Something may have changed (a request on the control socket): tell the panels now.
    func changed() { publisher.check() }

    /// A request from HTTP or OSC: refused here only for what is a local test aid.
    private func perform(_ json: JSONValue) -> (reply: ControlReply, parsed: Bool) {
        let line = Data(json.serialized.utf8)
        switch ControlRequest.parse(line) {
        case let .failure(error): return (.failure(error.description), false)
        case .success(.hang): return (.failure("hang is a local test aid, not offered over the network"), false)
        // A path on the box read as the microphone: a network client must not learn which
        // files exist from its errors, and rehearsing a follow is the operator's, at the box.
        case .success(.listen): return (.failure("listen reads a file on the rig: use rig ctl listen on the box"), false)
        case let .success(request):
            let reply = handle(request)
            publisher.check()
            return (reply, true)
        }
    }

    // MARK: HTTP

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let peer = request.peer?.host ?? "?"
        guard limiter.allow(peer, at: loop.clock()) else {
            return .json(429, JSONValueText(text: ControlReply.failure("too many requests; at most \(Int(limiter.rate)) a second").body.serialized))
        }
        if request.path == "/pair" { return pair(request) }
        guard token.matches(PairingToken.presented(in: request)) else {
            if request.path.hasPrefix("/api/") || request.method != "GET" {
                return .json(401, JSONValueText(text: ControlReply.failure("pairing token missing or wrong: open the pairing address shown on the rig's inner display, or send X-Rig-Token").body.serialized))
            }
            let text = "<!doctype html><meta name=viewport content=\"width=device-width\"><title>rig</title><p>Not paired. Open the pairing address shown on the rig's inner display.</p>\n"
            return .body(status: 401, contentType: "text/html; charset=utf-8", data: Data(text.utf8), headers: [])
        }
        guard request.method == "GET" || request.method == "POST" else {
            return .json(405, JSONValueText(text: ControlReply.failure("only GET and POST").body.serialized))
        }
        if request.path == "/api/events" { return .eventStream(publisher.subscribe()) }
        if request.path.hasPrefix("/api/") { return api(request) }
        switch page.lookup(request.path) {
        case let .file(data, type): return .body(status: 200, contentType: type, data: data, headers: [])
        case .refused: return .json(400, JSONValueText(text: ControlReply.failure("bad path").body.serialized))
        case .notFound: return .json(404, JSONValueText(text: ControlReply.failure("not found").body.serialized))
        }
    }

    private func pair(_ request: HTTPRequest) -> HTTPResponse {
        guard token.matches(request.query["token"]) else {
            return .json(401, JSONValueText(text: ControlReply.failure("wrong pairing token").body.serialized))
        }
        let cookie = "\(PairingToken.cookieName)=\(token.value); Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000"
        return .body(status: 303, contentType: "text/plain", data: Data("paired\n".utf8),
                     headers: [("Set-Cookie", cookie), ("Location", "/")])
    }

    private func api(_ request: HTTPRequest) -> HTTPResponse {
        let segments = request.path.dropFirst("/api/".count).split(separator: "/").map(String.init)
        guard let command = segments.first else {
            return .json(404, JSONValueText(text: ControlReply.failure("GET /api/status, POST /api/play, ...").body.serialized))
        }
        var fields: [String: JSONValue] = [:]
        if !request.body.isEmpty {
            guard case let .object(members)? = JSONValue.parse(request.body) else {
                return .json(400, JSONValueText(text: ControlReply.failure("the body must be a JSON object").body.serialized))
            }
            fields = members
        }
        for (key, value) in request.query where key != "token" { fields[key] = .string(value) }
        let json = RemoteCommandMap.request(command: command, arguments: segments.dropFirst().map { .string($0) },
                                            fields: fields)
        let (reply, parsed) = perform(json)
        let ok = reply.body["ok"]?.boolValue == true
        return .json(ok ? 200 : (parsed ? 409 : 400), JSONValueText(text: reply.body.serialized))
    }
}
