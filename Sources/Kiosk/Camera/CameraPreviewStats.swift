import Stage

/// Frame rate and latency of the camera preview for `rig ctl status`, measured on the
/// loop: capture rate from frame arrivals, preview rate and latency from the flips that
/// first showed each frame. Times are CLOCK_MONOTONIC seconds, passed in (testable
/// with made-up times).
struct CameraPreviewStats {
    /// Rates are averaged over this window, so a stall shows within two seconds.
    static let window = 2.0
    private static let latencySamples = 120

    private var arrivals: [Double] = []
    private var presentations: [Double] = []
    private var latencies: [Double] = []
    private var lastPresentedSequence: UInt32?
    private var lastArrivedSequence: UInt32?
    private(set) var framesReceived = 0
    /// Frames the driver skipped (sequence gaps) plus frames replaced before the loop took them.
    private(set) var framesDropped = 0
    private(set) var framesShown = 0

    mutating func frameArrived(sequence: UInt32, at time: Double, replacedBeforeDelivery: Int = 0) {
        framesReceived += 1
        if let last = lastArrivedSequence, sequence > last &+ 1, sequence &- last < 1000 {
            framesDropped += Int(sequence &- last &- 1)
        } else {
            framesDropped += replacedBeforeDelivery
        }
        lastArrivedSequence = sequence
        arrivals.append(time)
        trim(&arrivals, before: time - Self.window)
    }

    /// A flip showing the frame with this sequence and V4L2 timestamp completed at
    /// `flipTime`. Only the first flip of each frame counts: later flips (the overlay
    /// changed, the camera is slower than the display) show nothing new.
    mutating func presented(sequence: UInt32, captureTimestamp: Double, flipTime: Double) {
        guard sequence != lastPresentedSequence else { return }
        lastPresentedSequence = sequence
        framesShown += 1
        presentations.append(flipTime)
        trim(&presentations, before: flipTime - Self.window)
        latencies.append(flipTime - captureTimestamp)
        if latencies.count > Self.latencySamples { latencies.removeFirst(latencies.count - Self.latencySamples) }
    }

    func captureFramesPerSecond(now: Double) -> Double { rate(arrivals, now: now) }
    func previewFramesPerSecond(now: Double) -> Double { rate(presentations, now: now) }

    var lastLatency: Double? { latencies.last }
    var meanLatency: Double? { latencies.isEmpty ? nil : latencies.reduce(0, +) / Double(latencies.count) }
    var worstLatency: Double? { latencies.max() }

    /// Events per second inside the window ending `now`: intervals between the events,
    /// over the time they span, so the rate is right from the second event on.
    private func rate(_ times: [Double], now: Double) -> Double {
        let recent = times.filter { $0 > now - Self.window }
        guard recent.count >= 2, let first = recent.first, let last = recent.last, last > first else { return 0 }
        return Double(recent.count - 1) / (last - first)
    }

    private func trim(_ times: inout [Double], before limit: Double) {
        if let keep = times.firstIndex(where: { $0 > limit }) { times.removeFirst(keep) } else { times.removeAll() }
    }
}
