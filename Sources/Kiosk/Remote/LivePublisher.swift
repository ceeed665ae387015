import Foundation
import Stage

/// Sends the live state to event-stream clients and the OSC feedback host. The stage
/// says when its state changed (`changed`, through the kiosk's stage output, and after
/// each remote action): a change of transport, speed, script, mode or game phase goes
/// out within the loop's turn. The position is the only thing that moves by itself, so
/// only while the text moves (or a change came within the last second: a glide starts
/// at rest) the publisher looks again ten times a second. With nobody listening, or
/// nothing moving, it reads no status at all but a heartbeat's worth.
final class LivePublisher {
    static let positionInterval = 0.1
    static let heartbeatInterval = 15.0
    /// After a change the position is followed this long even if it has not moved yet.
    static let followAfterChange = 1.0

    private let loop: EventLoop
    private let status: () -> JSONValue
    private var clients: [EventStreamClient] = []
    var osc: OSCServer? { didSet { changed() } }
    private var last: LiveState?
    private var lastSent = 0.0
    private var lastChange = -Double.infinity
    private var lookTimer: EventLoop.TimerID?
    private var lookAt = 0.0
    private var heartbeatTimer: EventLoop.TimerID?
    /// Status reports read, for tests: a quiet rig costs none.
    private(set) var looks = 0

    init(loop: EventLoop, status: @escaping () -> JSONValue) {
        self.loop = loop
        self.status = status
    }

    func subscribe() -> EventStreamClient {
        let client = EventStreamClient()
        let state = LiveState(status: read())
        client.send(event: "state", data: state.json.serialized)
        clients.append(client)
        scheduleHeartbeat()
        // Playing now: the new client follows the position from the next look on.
        schedule(at: loop.clock())
        return client
    }

    /// The stage's state changed: look at the end of this turn of the loop (a burst of
    /// changes in one event is one look, and the look sees the event's whole result).
    func changed() {
        lastChange = loop.clock()
        schedule(at: lastChange)
    }

    private var listening: Bool {
        clients.removeAll { !$0.open }
        return !clients.isEmpty || osc != nil
    }

    private func read() -> JSONValue {
        looks += 1
        return status()
    }

    /// Looks now, sends what changed, and looks again soon while the position moves.
    private func look() {
        guard listening else { return }
        let now = loop.clock()
        let state = LiveState(status: read())
        let changed = state.withoutPosition != last?.withoutPosition
        let moved = state.json["offset"] != last?.json["offset"]
        if changed || (moved && now - lastSent >= Self.positionInterval) {
            for client in clients { client.send(event: "state", data: state.json.serialized) }
            osc?.feedback(state, full: changed)
            last = state
            lastSent = now
        }
        if moved || state.json["state"]?.stringValue == "playing" || now - lastChange < Self.followAfterChange {
            schedule(at: now + Self.positionInterval)
        }
    }

    /// A look at `time`, or sooner if one is already due sooner (a change never waits
    /// for the position's next look).
    private func schedule(at time: Double) {
        if let lookTimer {
            guard time < lookAt else { return }
            loop.cancel(lookTimer)
        }
        lookAt = time
        lookTimer = loop.addTimer(at: time) { [weak self] in
            guard let self else { return }
            self.lookTimer = nil
            self.look()
        }
    }

    /// A comment line every 15 s, so a dead peer is noticed and proxies keep the stream.
    private func scheduleHeartbeat() {
        guard heartbeatTimer == nil else { return }
        heartbeatTimer = loop.addTimer(at: loop.clock() + Self.heartbeatInterval) { [weak self] in
            guard let self else { return }
            self.heartbeatTimer = nil
            guard self.listening else { return }
            if self.loop.clock() - self.lastSent >= Self.heartbeatInterval {
                for client in self.clients { client.heartbeat() }
            }
            if !self.clients.isEmpty { self.scheduleHeartbeat() }
        }
    }
}
