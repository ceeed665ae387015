import Foundation

/// How the time of `work` grows from an input of size n to one of 8n: the median of
/// `runs` timings of each (taken in turn, so a load that comes and goes weighs on both),
/// as t(8n) / t(n). Linear work gives about 8 (less when a fixed cost dominates the
/// small input); quadratic gives about 64. A bound of 24 (8 × 3) tells them apart
/// with room for a noisy machine.
enum LinearTime {
    static let bound = 24.0

    struct Growth: CustomStringConvertible {
        var small: Duration
        var large: Duration
        var ratio: Double { large / small }
        var description: String { "t(n) \(small), t(8n) \(large): ×\(String(format: "%.1f", ratio))" }
    }

    /// `make(n)` builds the input (not timed); `work` runs on it and is timed.
    static func growth<Input>(n: Int, runs: Int = 3, make: (Int) -> Input, work: (Input) -> Void) -> Growth {
        let small = make(n), large = make(8 * n)
        let clock = ContinuousClock()
        var smallTimes: [Duration] = [], largeTimes: [Duration] = []
        for _ in 0..<runs {
            smallTimes.append(clock.measure { work(small) })
            largeTimes.append(clock.measure { work(large) })
        }
        func median(_ times: [Duration]) -> Duration { times.sorted()[times.count / 2] }
        return Growth(small: max(median(smallTimes), .microseconds(1)), large: median(largeTimes))
    }
}
