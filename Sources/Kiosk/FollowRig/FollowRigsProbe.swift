import Foundation
import Stage

/// A lead kiosk serving follower rigs, for `rig bench --case follow-rigs`: the headless
/// kiosk (its loop, frame pacing and flips) with the remote on loopback plays a script
/// while `followers` links, the follower rigs' own `LeadLink`s, keep its event stream
/// open, check its clock each second and fetch its script. What is measured is the
/// lead's outer frames: the time between shown frames and the vblanks it missed.
package enum FollowRigsProbe {
    package struct Outcome: Sendable {
        package var followers: Int
        package var flips: Int
        package var missedVblanks: Int
        /// Time between successive outer flips, ms: median, 99th percentile, largest.
        package var intervalMedian: Double
        package var intervalP99: Double
        package var intervalMax: Double
        /// Live states each follower received a second while the lead played (median).
        package var statesPerSecond: Double
    }

    static let key = "bench-key-0123456789abcdef0123456789"

    /// Plays `text` on a lead with `followers` links attached for `frames` outer flips
    /// (after a second of ramp) on an outer display of `width`×`height`.
    package static func run(text: String, followers: Int, width: Int = 1920, height: Int = 1080,
                            frames: Int) throws -> Outcome {
        var address: String?
        let kiosk = try ProbeKiosk(name: "follow-probe", text: text, settings: [
            "prompter.font_size=60", "prompter.speed=90", "remote.enabled=true", "remote.bind=\"127.0.0.1\"",
            "remote.port=0", "remote.api_keys.bench=\"\(key)\"",
        ], inner: PixelSizeArgument(width: 1280, height: 800), outer: PixelSizeArgument(width: width, height: height)) { app in
            address = app.stage.handle(.status).body["remote"]?["http"]?.stringValue
            return address != nil
        }
        let counter = StateCounter(count: followers)
        let links = (0..<followers).compactMap { index in
            LeadLink(leader: "http://\(address ?? "")", key: key) { report in
                if case .state = report { counter.add(index) }
            }
        }
        for link in links { link.start() }
        defer { for link in links { link.stop() } }
        let start = kiosk.play()
        var times: [Double] = []
        let missedBefore = kiosk.missedVblanks
        kiosk.headless.onPresented = { role, stamp, _ in
            guard role == .outer, stamp.time > start + 1, times.count <= frames else { return }
            times.append(stamp.time)
        }
        counter.reset()
        kiosk.run(for: 1 + Double(frames) / 20 + 10) { times.count > frames }
        kiosk.headless.onPresented = nil
        guard times.count > frames else { throw ProbeKiosk.ProbeError.tooFewFrames(times.count) }
        let seconds = max(times.last! - times.first!, 0.001)
        let intervals = zip(times.dropFirst(), times).map { ($0 - $1) * 1000 }.sorted()
        let received = counter.counts.sorted()
        return Outcome(followers: followers, flips: frames,
                       missedVblanks: kiosk.missedVblanks - missedBefore,
                       intervalMedian: intervals[intervals.count / 2],
                       intervalP99: intervals[min(intervals.count - 1, intervals.count * 99 / 100)],
                       intervalMax: intervals.last!,
                       statesPerSecond: received.isEmpty ? 0 : Double(received[received.count / 2]) / seconds)
    }

    /// States received per follower, counted on the links' threads.
    private final class StateCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Int]
        init(count: Int) { values = Array(repeating: 0, count: count) }
        func add(_ index: Int) { lock.withLock { values[index] += 1 } }
        func reset() { lock.withLock { values = values.map { _ in 0 } } }
        var counts: [Int] { lock.withLock { values } }
    }
}
