import Foundation

/// A clock that moves only when told to, for tests: the engine and the stage take
/// every time as an argument (CLOCK_MONOTONIC seconds in the kiosk, the event loop's
/// clock), so this is all a test needs to drive them. Thread-safe so a test may hand
/// it to code on another thread.
public final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Double

    public init(_ start: Double = 1_000) {
        current = start
    }

    public func now() -> Double {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// Moves time forward; a negative step is ignored because monotonic time never goes back.
    public func advance(by seconds: Double) {
        lock.lock()
        defer { lock.unlock() }
        if seconds > 0 { current += seconds }
    }

    /// Sets the time outright (tests that replay a recorded sequence of timestamps).
    public func set(_ seconds: Double) {
        lock.lock()
        defer { lock.unlock() }
        current = seconds
    }
}
