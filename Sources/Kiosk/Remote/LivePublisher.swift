import Foundation
import Stage

/// Sends the live state to event-stream clients and the OSC feedback host. While
/// anyone listens it looks every 50 ms (and right after each remote action): a change
/// of transport, speed, script, mode or game phase goes out at once, the position while
/// it moves at most ten times a second. With nobody listening it does nothing.
final class LivePublisher {
    static let tick = 0.05
    static let positionInterval = 0.1
    static let heartbeatInterval = 15.0

    private let loop: EventLoop
    private let status: () -> JSONValue
    private var clients: [EventStreamClient] = []
    var osc: OSCServer? { didSet { schedule() } }
    private var last: LiveState?
    private var lastSent = 0.0
    private var lastHeartbeat = 0.0
    private var timer: EventLoop.TimerID?

    init(loop: EventLoop, status: @escaping () -> JSONValue) {
        self.loop = loop
        self.status = status
    }

    func subscribe() -> EventStreamClient {
        let client = EventStreamClient()
        let state = LiveState(status: status())
        client.send(event: "state", data: state.json.serialized)
        clients.append(client)
        schedule()
        return client
    }

    /// Looks now, and sends what changed.
    func check() {
        clients.removeAll { !$0.open }
        guard !clients.isEmpty || osc != nil else { return }
        let now = loop.clock()
        let state = LiveState(status: status())
        let changed = state.withoutPosition != last?.withoutPosition
        let moved = state.json["offset"] != last?.json["offset"]
        if changed || (moved && now - lastSent >= Self.positionInterval) {
            for client in clients { client.send(event: "state", data: state.json.serialized) }
            osc?.feedback(state, full: changed)
            last = state
            lastSent = now
        } else if now - lastHeartbeat >= Self.heartbeatInterval {
            for client in clients { client.heartbeat() }
            lastHeartbeat = now
        }
    }

    private func schedule() {
        guard timer == nil else { return }
        timer = loop.addTimer(at: loop.clock() + Self.tick) { [weak self] in
            guard let self else { return }
            self.timer = nil
            self.check()
            if !self.clients.isEmpty || self.osc != nil { self.schedule() }
        }
    }
}
