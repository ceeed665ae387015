import Prompter

/// How long the open script has been read: playing time since it was opened or
/// stopped, pauses excluded. The operator view shows it next to the time left.
package struct ReadingStopwatch: Equatable {
    private var accumulated = 0.0
    private var runningSince: Double?

    /// Follows the transport; call on every state change.
    package mutating func observe(_ state: TransportState, at t: Double) {
        switch state {
        case .playing:
            if runningSince == nil { runningSince = t }
        case .paused:
            if let start = runningSince { accumulated += t - start }
            runningSince = nil
        case .stopped:
            reset()
        }
    }

    package mutating func reset() {
        accumulated = 0
        runningSince = nil
    }

    package func elapsed(at t: Double) -> Double {
        accumulated + (runningSince.map { max(0, t - $0) } ?? 0)
    }

    /// "1:05", or "1:02:05" past an hour.
    package static func clock(_ seconds: Double) -> String {
        let total = Int(max(0, seconds.isFinite ? seconds : 0).rounded(.down))
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return h > 0 ? "\(h):\(twoDigits(m)):\(twoDigits(s))" : "\(m):\(twoDigits(s))"
    }
}
