/// Time that moves only when told to, with the timers it runs: `rig snapshot`,
/// `rig bench` and tests drive a stage through it, replaying "open, play, advance to
/// t" as the kiosk's loop would run it.
package final class ManualStageClock {
    private struct Timer {
        package let deadline: Double
        package let order: Int
        package let action: () -> Void
    }

    package private(set) var now: Double
    private var timers: [Timer] = []
    private var scheduled = 0

    package init(at start: Double = 0) { now = start }

    package func schedule(at deadline: Double, _ action: @escaping () -> Void) {
        scheduled += 1
        timers.append(Timer(deadline: deadline, order: scheduled, action: action))
    }

    /// Runs every timer due by `time` in deadline order (ties in the order they were
    /// set), the clock standing at each one's deadline, then stands at `time`.
    package func advance(to time: Double) {
        while let next = timers.indices.min(by: { (timers[$0].deadline, timers[$0].order)
            < (timers[$1].deadline, timers[$1].order) }), timers[next].deadline <= time {
            let timer = timers.remove(at: next)
            now = max(now, timer.deadline)
            timer.action()
        }
        now = max(now, time)
    }
}
