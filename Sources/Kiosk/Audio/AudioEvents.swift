import Synchronization

/// The hand-over from a sound thread to the event loop: state changes, playback
/// reports and counters, in order. The thread publishes and wakes the loop once per
/// batch through its mailbox; the loop takes everything.
final class AudioEvents: Sendable {
    struct Batch: Sendable {
        var states: [AudioDeviceState] = []
        var playback: [PlaybackReport] = []
        /// Underruns (playback) or overruns (capture) since the last batch.
        var xruns = 0
        /// The moment the first sample of a clip was handed to ALSA, by clip id.
        var handedOver: [Int: Double] = [:]
    }

    private struct Pending {
        var batch = Batch()
        var wakePending = false
    }

    private let pending = Mutex(Pending())
    private let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    func report(_ state: AudioDeviceState) {
        publish { batch in
            if batch.states.count >= 16 { batch.states.removeFirst() }
            batch.states.append(state)
        }
    }

    func report(_ playback: PlaybackReport) { publish { $0.playback.append(playback) } }
    func xrun() { publish { $0.xruns += 1 } }
    func handedOver(id: Int, at time: Double) { publish { $0.handedOver[id] = time } }

    private func publish(_ change: (inout Batch) -> Void) {
        let shouldWake = pending.withLock { state -> Bool in
            change(&state.batch)
            defer { state.wakePending = true }
            return !state.wakePending
        }
        if shouldWake { wake() }
    }

    func take() -> Batch {
        pending.withLock { state in
            defer { state = Pending() }
            return state.batch
        }
    }
}
