import Prompter
import Testing
@testable import Kiosk

/// A headless kiosk's event loop on a manual clock: time moves from one timer to the
/// next, so "a second of playing" is exactly a second of frames and timers, and a
/// test never waits on the machine's speed.
struct ManualLoop {
    let clock: ManualClock
    let loop: EventLoop

    var now: Double { clock.now() }

    /// Runs every timer due by `time`, the clock at each deadline, then stands at `time`.
    func advance(to time: Double) {
        loop.runOnce(timeout: 0)
        while let next = loop.nextTimerDeadline, next <= time {
            clock.set(max(now, next))
            loop.runOnce(timeout: 0)
        }
        clock.set(max(now, time))
        loop.runOnce(timeout: 0)
    }

    func advance(by seconds: Double) { advance(to: now + seconds) }

    /// Runs timer by timer until `condition` holds, failing after `seconds` of the
    /// loop's time.
    @discardableResult
    func run(seconds: Double = 10, sourceLocation: SourceLocation = #_sourceLocation,
             until condition: () -> Bool) -> Bool {
        let deadline = now + seconds
        loop.runOnce(timeout: 0)
        while !condition() && now < deadline {
            clock.set(max(now, min(loop.nextTimerDeadline ?? deadline, deadline)))
            loop.runOnce(timeout: 0)
        }
        let met = condition()
        #expect(met, "condition not reached in \(seconds) s of loop time", sourceLocation: sourceLocation)
        return met
    }
}
