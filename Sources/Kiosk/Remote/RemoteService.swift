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

    /// The stage's state changed (pushed through the kiosk's stage output): the panels
    /// hear it within this turn of the loop.
    func changed() { publisher.changed() }

    /// A request from HTTP or OSC: refused here only for what is a local test aid.
    private func perform(_ json: JSONValue) -> (reply: ControlReply, parsed: Bool) {
        switch RemoteRoute.controlRequest(json) {
        case let .failure(refusal): return (.failure(refusal.description), false)
        case let .success(request):
            return (handle(request), true)
        }
    }

    // MARK: HTTP

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let peer = request.peer?.host ?? "?"
        guard limiter.allow(peer, at: loop.clock()) else {
            return failure(429, "too many requests; at most \(Int(limiter.rate)) a second")
        }
        switch RemoteRoute.of(request, token: token) {
        case .pair(paired: true):
            let cookie = "\(PairingToken.cookieName)=\(token.value); Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000"
            return .body(status: 303, contentType: "text/plain", data: Data("paired\n".utf8),
                         headers: [("Set-Cookie", cookie), ("Location", "/")])
        case .pair(paired: false): return failure(401, "wrong pairing token")
        case .unpaired(api: true):
            return failure(401, "pairing token missing or wrong: open the pairing address shown on the rig's inner display, or send X-Rig-Token")
        case .unpaired(api: false):
            let text = "<!doctype html><meta name=viewport content=\"width=device-width\"><title>rig</title><p>Not paired. Open the pairing address shown on the rig's inner display.</p>\n"
            return .body(status: 401, contentType: "text/html; charset=utf-8", data: Data(text.utf8), headers: [])
        case .methodNotAllowed: return failure(405, "only GET and POST")
        case .events: return .eventStream(publisher.subscribe())
        case .apiUsage: return failure(404, "GET /api/status, POST /api/play, ...")
        case .badBody: return failure(400, "the body must be a JSON object")
        case let .command(json):
            let (reply, parsed) = perform(json)
            let ok = reply.body["ok"]?.boolValue == true
            return .json(ok ? 200 : (parsed ? 409 : 400), JSONValueText(text: reply.body.serialized))
        case let .page(path):
            switch page.lookup(path) {
            case let .file(data, type): return .body(status: 200, contentType: type, data: data, headers: [])
            case .refused: return failure(400, "bad path")
            case .notFound: return failure(404, "not found")
            }
        case .badAddress: return failure(404, "not found")
        }
    }

    private func failure(_ status: Int, _ message: String) -> HTTPResponse {
        .json(status, JSONValueText(text: ControlReply.failure(message).body.serialized))
    }
}
