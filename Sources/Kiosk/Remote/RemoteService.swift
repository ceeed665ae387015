import Foundation
import Stage

/// `[remote]`: the HTTP API, the live event stream, OSC and the phone page, all on the
/// kiosk's event loop. Every action goes through `handle`, the same function the Unix
/// control socket calls, so both mean exactly the same; what the network may not do is
/// refused before (RemoteRoute.controlRequest). It is also the stage's RemoteAccessPort:
/// the console pairs and revokes phones through it.
final class RemoteService: RemoteAccessPort {
    typealias Handler = (ControlRequest) -> ControlReply

    let access: RemoteAccess
    let http: HTTPServer
    private(set) var osc: OSCServer?
    let page: RemotePage
    private let loop: EventLoop
    private let handle: Handler
    private let exportDestinations: () -> [String]
    private var limiter: RateLimiter
    private let publisher: LivePublisher
    private let site: RemoteSite
    private let oscCommandsAll: Bool
    private var expiry: EventLoop.TimerID?
    /// The open event streams, oldest first: who holds each (a revoked phone's end), and
    /// from where (an address holds only so many).
    private var streams: [(peer: String, device: String?, stream: EventStreamClient)] = []
    private let streamsPerAddress: Int
    private let streamsInAll: Int

    /// Listens on `config.bind`, a numeric address (RemoteHost resolves a named one),
    /// for the peers in `allow`.
    init(config: RigConfig.Remote, allow: [AddressPrefix], stateFolder: String, loop: EventLoop,
         status: @escaping () -> JSONValue,
         exportDestinations: @escaping () -> [String], handle: @escaping Handler) throws {
        self.loop = loop
        self.handle = handle
        self.exportDestinations = exportDestinations
        access = RemoteAccess(stateFolder: stateFolder, apiKeys: config.apiKeys)
        limiter = RateLimiter(rate: config.requestsPerSecond)
        page = RemotePage(configured: config.pageDir)
        oscCommandsAll = config.oscCommands == "all"
        // Streams never fill an address's connection slots (nor the server's): the rest
        // is for requests, so a phone that reloaded its page twenty times still gets in.
        streamsPerAddress = max(1, config.maxConnectionsPerAddress / 2)
        streamsInAll = max(1, config.maxConnections / 2)
        guard let address = SocketAddress(host: config.bind, port: config.port) else {
            throw HTTPServer.Failure.start(config.bind)
        }
        let accepts: (SocketAddress) -> Bool = { peer in allow.contains { $0.contains(peer) } }
        var limits = HTTPServer.Limits()
        limits.maxBodyBytes = config.maxBodyKB * 1024
        limits.timeoutSeconds = config.timeout
        limits.maxConnections = config.maxConnections
        limits.maxConnectionsPerAddress = config.maxConnectionsPerAddress
        publisher = LivePublisher(loop: loop, status: status)
        var route: (HTTPRequest) -> HTTPResponse = { _ in .json(503, JSONValueText(text: "{\"ok\":false}")) }
        http = try HTTPServer(address: address, limits: limits, loop: loop, accepts: accepts) { route($0) }
        site = RemoteSite(host: AddressPrefix(parsing: config.bind)?.isUnspecified == true ? nil : http.address.host,
                          port: Int(http.address.port))
        route = { [unowned self] in self.answer($0) }
        if config.osc {
            guard let oscAddress = SocketAddress(host: config.bind, port: config.oscPort) else { return }
            let feedback = SocketAddress(parsing: config.oscFeedback)
            let access = access
            osc = try OSCServer(address: oscAddress, feedback: feedback, loop: loop, accepts: accepts,
                                signedIn: { key in key.flatMap(access.caller(presentingKey:)) != nil }) {
                [unowned self] json in self.performOSC(json)
            }
            if let osc, feedback != nil { publisher.osc = osc }
        }
        access.onChange = { [unowned self] in self.accessChanged() }
    }

    /// The console's Remote panel and the journal hear of pairings and revocations.
    var onAccessChanged: () -> Void = {}

    /// Opens pairing for five minutes (the remote came up, or the operator asked).
    @discardableResult
    func openPairing() -> PairingCode {
        let code = access.openPairing(at: loop.clock())
        if let expiry { loop.cancel(expiry) }
        expiry = loop.addTimer(at: code.expires) { [weak self] in
            guard let self else { return }
            expiry = nil
            access.expire(at: loop.clock())
        }
        return code
    }

    /// Where a phone opens the remote: `http://ADDRESS:PORT`, with the address a phone
    /// on the network reaches (the bound one, or, bound to all, the default route's
    /// interface's). Worked out once: the console reads it for every frame of Settings.
    private(set) lazy var address: String = {
        var host = http.address.host
        if AddressPrefix(parsing: host)?.isUnspecified == true { host = RemoteBindAddress.resolve("auto") ?? "127.0.0.1" }
        return host.contains(":") ? "http://[\(host)]:\(http.address.port)" : "http://\(host):\(http.address.port)"
    }()

    // MARK: RemoteAccessPort

    var shown: RemoteAccessShown { access.shown(pairingAddress: address, now: loop.clock()) }

    func request(action: String, id: String?) -> ControlReply {
        switch action {
        case "pair":
            let code = openPairing()
            return .success(["pair": .string("\(address)/pair?code=\(code.value)"),
                             "expires_in": .int(Int(PairingCode.lifetime))])
        case "revoke":
            guard let device = access.revoke(id ?? "") else {
                return .failure("no paired device \(id ?? "") (rig ctl remote devices lists them)")
            }
            for entry in streams where entry.device == device.id { entry.stream.end() }
            streams.removeAll { $0.device == device.id || !$0.stream.open }
            KioskLog.notice("remote: revoked phone \"\(device.name)\" (\(device.id))")
            return .success(["revoked": .string(device.id), "name": .string(device.name)])
        default:
            return .success(["remote": shown.json])
        }
    }

    /// `rig ctl status`'s `remote` object: addresses and counts, never a credential or code.
    var statusJSON: JSONValue {
        [
            "http": .string("\(http.address)"),
            "osc": osc.map { .string("\($0.address)") } ?? .null,
            "streams": .int(http.streams.count),
            "paired": .int(access.devices.devices.count),
            "pairing_open": .bool(access.code != nil),
        ]
    }

    /// The stage's state changed (pushed through the kiosk's stage output): the panels
    /// hear it within this turn of the loop.
    func changed() { publisher.changed() }

    private func accessChanged() { onAccessChanged() }

    /// A request from HTTP or OSC, refused here for what the network may not do; with the
    /// HTTP status that says which: 200 done, 409 the rig said no, 400 not a request, 403
    /// not over the network.
    private func perform(_ json: JSONValue) -> (reply: ControlReply, status: Int) {
        switch RemoteRoute.controlRequest(json, destinations: exportDestinations()) {
        case let .failure(refusal): return (.failure(refusal.description), refusal.forbidden ? 403 : 400)
        case let .success(request):
            let reply = handle(request)
            return (reply, reply.body["ok"]?.boolValue == true ? 200 : 409)
        }
    }

    private func performOSC(_ json: JSONValue) -> ControlReply {
        guard oscCommandsAll || RemoteRoute.oscLimited(json) else {
            let command = json["cmd"]?.stringValue ?? "?"
            return .failure("OSC carries transport, speed, markers and the game's send, stop and verdict; \(command) "
                            + "is for the HTTP API ([remote] osc_commands = \"all\" allows every command)")
        }
        return perform(json).reply
    }

    // MARK: HTTP

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let peer = request.peer?.host ?? "?"
        guard limiter.allow(peer, at: loop.clock()) else {
            return failure(429, "too many requests; at most \(Int(limiter.rate)) a second")
        }
        let caller = access.caller(of: request)
        switch RemoteRoute.of(request, signedIn: caller != nil, site: site) {
        case let .pairPage(code):
            guard access.code?.matches(code, at: loop.clock()) == true else { return PairingPage.expired }
            return PairingPage.form(code: code ?? "", suggestedName: PairingPage.deviceGuess(request.headers["user-agent"]))
        case let .pair(code, name):
            guard let paired = access.pair(code: code, name: name, at: loop.clock()) else {
                return request.headers["accept"]?.contains("text/html") == true ? PairingPage.expired
                    : failure(401, "the pairing code is wrong, used or out of date: press Pair a phone on the rig")
            }
            KioskLog.notice("remote: paired phone \"\(paired.device.name)\" (\(paired.device.id)) from \(peer)")
            let cookie = "\(RemoteAccess.deviceCookie)=\(paired.credential); Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000"
            return .body(status: 303, contentType: "text/plain", data: Data("paired\n".utf8),
                         headers: [("Set-Cookie", cookie), ("Location", "/")])
        case let .foreign(reason): return failure(403, reason)
        case .unpaired(api: true):
            return failure(401, "not paired: pair this phone with the address shown on the rig (Settings, Pair a phone), or send an API key (X-Rig-Key)")
        case .unpaired(api: false): return PairingPage.notPaired
        case let .methodNotAllowed(reason): return failure(405, reason)
        case .events:
            makeRoomForStream(from: peer)
            let stream = publisher.subscribe()
            if case let .device(device)? = caller { streams.append((peer, device.id, stream)) } else {
                streams.append((peer, nil, stream))
            }
            return .eventStream(stream)
        case .apiUsage: return failure(404, "GET /api/status, POST /api/play, ...")
        case .badBody: return failure(400, "the body must be a JSON object")
        case let .command(json):
            let (reply, status) = perform(json)
            return .json(status, JSONValueText(text: reply.body.serialized))
        case let .page(path):
            switch page.lookup(path) {
            case let .file(data, type): return .body(status: 200, contentType: type, data: data, headers: [])
            case .refused: return failure(400, "bad path")
            case .notFound: return failure(404, "not found")
            }
        case .badAddress: return failure(404, "not found")
        }
    }

    /// Ends the oldest streams of `peer` past its share, and the oldest of the address
    /// holding most when the server's share is full: one address never locks out another.
    private func makeRoomForStream(from peer: String) {
        streams.removeAll { !$0.stream.open }
        while streams.filter({ $0.peer == peer }).count >= streamsPerAddress,
              let oldest = streams.firstIndex(where: { $0.peer == peer }) {
            streams.remove(at: oldest).stream.end()
        }
        while streams.count >= streamsInAll {
            let counts = Dictionary(streams.map { ($0.peer, 1) }, uniquingKeysWith: +)
            guard let busiest = counts.max(by: { $0.value < $1.value })?.key,
                  let oldest = streams.firstIndex(where: { $0.peer == busiest }) else { break }
            streams.remove(at: oldest).stream.end()
        }
    }

    private func failure(_ status: Int, _ message: String) -> HTTPResponse {
        .json(status, JSONValueText(text: ControlReply.failure(message).body.serialized))
    }
}
