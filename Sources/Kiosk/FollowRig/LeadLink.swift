import Foundation
import Stage

/// A follower rig's link to its lead's remote (`[follow_rig]`), on two threads of its
/// own so the loop never waits on the network:
/// - the stream thread keeps `/api/events` open and hands each live state over; a
///   refused key, a closed or silent stream is "lost", and it connects again each second;
/// - the request thread checks the clock offset once a second (`/api/clock`, the sample
///   with the shortest round trip of the last eight, as NTP filters), which also notices
///   a lead gone quiet while paused (two failed checks cut the stream), and fetches the
///   script when the stage asks (`/api/script_text`), parsed and hash-checked here.
/// Reports reach the loop through `report`.
final class LeadLink: @unchecked Sendable {
    static let connectTimeout = 2.0
    static let requestTimeout = 1.5
    static let checkInterval = 1.0
    /// The lead's heartbeat comes every 15 s; a stream quiet for longer is dead.
    static let streamSilence = 20.0

    private let address: SocketAddress
    private let host: String
    private let key: String
    private let report: @Sendable (LeadLinkReport) -> Void
    private let condition = NSCondition()
    // Under `condition`:
    private var stopping = false
    private var wantScript = false
    private var stream: LeadConnection?
    private var threads: [Thread] = []
    private var samples: [(offset: Double, trip: Double)] = []

    /// `leader` is "http://ADDRESS:PORT" (numeric, as rig.toml's check allows).
    init?(leader: String, key: String, report: @escaping @Sendable (LeadLinkReport) -> Void) {
        guard let authority = Self.authority(leader), let address = SocketAddress(parsing: authority) else { return nil }
        self.address = address
        host = authority
        self.key = key
        self.report = report
    }

    /// "ADDRESS:PORT" of "http://ADDRESS:PORT[/]".
    static func authority(_ leader: String) -> String? {
        guard leader.hasPrefix("http://") else { return nil }
        var rest = leader.dropFirst("http://".count)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        return rest.isEmpty || rest.contains("/") ? nil : String(rest)
    }

    /// `[follow_rig]`'s link for `stage`'s follower, started, its reports posted to the
    /// stage on the loop; nil on a rig that follows no lead, or (said on the banner)
    /// without a key.
    static func start(for stage: RigStage, config: FollowRigConfig, mailbox: LoopMailbox) -> LeadLink? {
        guard let follower = stage.followerRig else { return nil }
        guard !config.key.isEmpty else {
            stage.handle(.leadLink(.lost("no [follow_rig] key: the lead asks for one of its [remote.api_keys]")))
            return nil
        }
        let handle = LoopBound(stage)
        let link = LeadLink(leader: config.leader, key: config.key) { report in
            mailbox.post { handle.value?.handle(.leadLink(report)) }
        }
        follower.fetchScript = { link?.fetchScript() }
        link?.start()
        KioskLog.notice("follow rig: following \(config.leader)")
        return link
    }

    func start() {
        let stream = Thread { [self] in streamLoop() }
        stream.name = "rig-lead-stream"
        let requests = Thread { [self] in requestLoop() }
        requests.name = "rig-lead-requests"
        threads = [stream, requests]
        stream.start()
        requests.start()
    }

    func stop() {
        condition.lock()
        stopping = true
        stream?.cut()
        condition.broadcast()
        condition.unlock()
    }

    /// The stage wants the lead's script (its hash differs from the one shown).
    func fetchScript() {
        condition.lock()
        wantScript = true
        condition.broadcast()
        condition.unlock()
    }

    private var isStopping: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping
    }

    /// Waits up to `seconds` or until stopped (or, for the request thread, a script is wanted).
    private func pause(_ seconds: Double, orScript: Bool) {
        condition.lock()
        let until = Date(timeIntervalSinceNow: seconds)
        while !stopping, !(orScript && wantScript), condition.wait(until: until) {}
        condition.unlock()
    }

    // MARK: the stream

    private func streamLoop() {
        while !isStopping {
            do {
                let connection = try LeadConnection(to: address, timeout: Self.connectTimeout)
                condition.lock()
                stream = stopping ? nil : connection
                condition.unlock()
                let status = try connection.send(path: "/api/events", host: host, key: key, accept: "text/event-stream",
                                                 timeout: Self.connectTimeout)
                guard status == 200 else { throw LeadConnection.Failure(Self.refusal(status)) }
                while !isStopping {
                    guard let event = try connection.nextEvent(timeout: Self.streamSilence) else { continue }
                    if event.event == "state", let json = JSONValue.parse(Data(event.data.utf8)) {
                        report(.state(LeadState(json: json)))
                    }
                }
            } catch {
                if !isStopping { report(.lost("\(error)")) }
            }
            condition.lock()
            stream = nil
            condition.unlock()
            pause(Self.checkInterval, orScript: false)
        }
    }

    private static func refusal(_ status: Int) -> String {
        switch status {
        case 401: "the lead refused the key ([follow_rig] key must be one of the lead's [remote.api_keys])"
        case 403: "the lead refused this rig (its [remote] allow, or another rig at that address)"
        default: "the lead answered HTTP \(status)"
        }
    }

    // MARK: clock and script

    private func requestLoop() {
        var failures = 0
        while !isStopping {
            condition.lock()
            let script = wantScript
            wantScript = false
            condition.unlock()
            if script { fetchScriptNow() }
            do {
                let sample = try checkClock()
                failures = 0
                samples.append(sample)
                if samples.count > 8 { samples.removeFirst() }
                let best = samples.min { $0.trip < $1.trip }!
                report(.clock(offset: best.offset, roundTrip: best.trip))
            } catch {
                failures += 1
                if failures == 2 {
                    report(.lost(error.description))
                    condition.lock()
                    stream?.cut()
                    condition.unlock()
                }
            }
            pause(Self.checkInterval, orScript: true)
        }
    }

    private func get(_ path: String) throws(LeadConnection.Failure) -> JSONValue {
        let connection = try LeadConnection(to: address, timeout: Self.requestTimeout)
        let status = try connection.send(path: path, host: host, key: key, accept: "application/json",
                                         timeout: Self.requestTimeout)
        let body = try connection.body(timeout: Self.requestTimeout * 4)
        guard let json = JSONValue.parse(body) else {
            throw LeadConnection.Failure(status == 200 ? "the lead's reply is not JSON" : Self.refusal(status))
        }
        return json
    }

    /// The lead's clock minus this rig's, by one round trip (the lead's time is taken at
    /// the middle of it), and the round trip.
    private func checkClock() throws(LeadConnection.Failure) -> (offset: Double, trip: Double) {
        let sent = Date().timeIntervalSince1970
        let reply = try get("/api/clock")
        let back = Date().timeIntervalSince1970
        guard let lead = reply["wall_time"]?.numberValue else {
            throw LeadConnection.Failure(reply["error"]?.stringValue ?? "the lead did not say its time")
        }
        return (lead - (sent + back) / 2, back - sent)
    }

    private func fetchScriptNow() {
        do {
            switch LeadScript.parse(try get("/api/script_text")) {
            case let .success(script): report(.script(script))
            case let .failure(refusal): report(.scriptProblem(refusal.description))
            }
        } catch {
            report(.scriptProblem("could not fetch it: \(error.description)"))
        }
    }
}
