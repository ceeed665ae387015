import Foundation

/// Requests per second per peer address, as a token bucket: a burst of `rate`
/// requests, then `rate` a second. A peer over it is refused (429) without reaching
/// the kiosk's state.
struct RateLimiter {
    private struct Bucket { var tokens: Double; var updated: Double }
    let rate: Double
    private var buckets: [String: Bucket] = [:]

    init(rate: Int) { self.rate = Double(rate) }

    mutating func allow(_ peer: String, at now: Double) -> Bool {
        var bucket = buckets[peer] ?? Bucket(tokens: rate, updated: now)
        bucket.tokens = min(rate, bucket.tokens + (now - bucket.updated) * rate)
        bucket.updated = now
        let allowed = bucket.tokens >= 1
        if allowed { bucket.tokens -= 1 }
        buckets[peer] = bucket
        // Full buckets carry no information: forget them, so the table stays small.
        if buckets.count > 1024 { buckets = buckets.filter { now - $0.value.updated < 1 } }
        return allowed
    }
}
