import Glibc
import Kiosk
import Stage

/// CLOCK_MONOTONIC in nanoseconds, and the loop that times a frame body.
enum BenchClock {
    static func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Runs `body` `warmup` times untimed (caches, lazy rasterization, page faults),
    /// then `frames` times, returning each timed run in milliseconds.
    static func sampleMs(frames: Int, warmup: Int, _ body: () throws -> Void) rethrows -> [Double] {
        for _ in 0..<warmup { try body() }
        var samples: [Double] = []
        samples.reserveCapacity(frames)
        for _ in 0..<frames {
            let start = nanoseconds()
            try body()
            samples.append(Double(nanoseconds() - start) / 1e6)
        }
        return samples
    }

    /// Milliseconds one call of `body` takes.
    static func onceMs<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = nanoseconds()
        let value = try body()
        return (value, Double(nanoseconds() - start) / 1e6)
    }
}
