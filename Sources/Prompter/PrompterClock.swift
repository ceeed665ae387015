import Foundation

/// The one time base of the rig: seconds on CLOCK_MONOTONIC.
///
/// DRM page-flip timestamps, libinput event times and V4L2 buffer times are all on
/// this clock, so the engine can be asked for the offset at a predicted vblank or
/// paused at the instant a finger touched the glass. Tests inject `ManualClock`.
public protocol PrompterClock: Sendable {
    func now() -> Double
}

/// CLOCK_MONOTONIC read with clock_gettime: never jumps with wall-clock changes.
public struct MonotonicClock: PrompterClock {
    public init() {}

    public func now() -> Double {
        var spec = timespec()
        // clock_gettime cannot fail for CLOCK_MONOTONIC with a valid pointer.
        _ = clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
    }
}
