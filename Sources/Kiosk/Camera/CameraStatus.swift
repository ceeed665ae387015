import Stage

/// The camera's line in `rig ctl status`: which device, what it is doing, the chosen
/// mode, how fast frames arrive and reach the glass, and how late.
struct CameraStatus: Sendable, Equatable {
    var device: String
    var path: String
    var state: CameraState
    var captureFramesPerSecond: Double
    var previewFramesPerSecond: Double
    /// Seconds from the V4L2 buffer timestamp to the flip that first showed the frame.
    var lastLatency: Double?
    var meanLatency: Double?
    var worstLatency: Double?
    var framesReceived: Int
    var framesShown: Int
    var framesDropped: Int
    /// The preview thread's counts (nil without one): frames it skipped so the
    /// recorder came first, and its conversion time.
    var preview: CameraPreviewConverter.Counts?

    init(device: String, path: String, state: CameraState, stats: CameraPreviewStats, now: Double) {
        self.device = device
        self.path = path
        self.state = state
        captureFramesPerSecond = stats.captureFramesPerSecond(now: now)
        previewFramesPerSecond = stats.previewFramesPerSecond(now: now)
        lastLatency = stats.lastLatency
        meanLatency = stats.meanLatency
        worstLatency = stats.worstLatency
        framesReceived = stats.framesReceived
        framesShown = stats.framesShown
        framesDropped = stats.framesDropped
    }

    var mode: CameraMode? {
        if case let .streaming(mode, _) = state { mode } else { nil }
    }

    /// Key-value pairs in a fixed order, for the status output (text or JSON).
    var fields: [(key: String, value: String)] {
        var fields: [(String, String)] = [("camera.device", device), ("camera.path", path)]
        switch state {
        case .starting: fields.append(("camera.state", "starting"))
        case .streaming: fields.append(("camera.state", "streaming"))
        case .stopped: fields.append(("camera.state", "stopped"))
        case let .unavailable(reason):
            fields.append(("camera.state", "unavailable"))
            fields.append(("camera.reason", reason))
        }
        if let mode {
            fields.append(("camera.format", mode.format.rawValue + (mode.emulated ? " (libv4l2)" : "")))
            fields.append(("camera.size", "\(mode.width)x\(mode.height)"))
            fields.append(("camera.fps", Self.decimal(mode.framesPerSecond, places: 2)))
        }
        fields.append(("camera.capture_fps", Self.decimal(captureFramesPerSecond, places: 1)))
        fields.append(("camera.preview_fps", Self.decimal(previewFramesPerSecond, places: 1)))
        if let lastLatency { fields.append(("camera.latency_ms", Self.decimal(lastLatency * 1000, places: 1))) }
        if let meanLatency { fields.append(("camera.latency_mean_ms", Self.decimal(meanLatency * 1000, places: 1))) }
        if let worstLatency { fields.append(("camera.latency_max_ms", Self.decimal(worstLatency * 1000, places: 1))) }
        fields.append(("camera.frames_received", "\(framesReceived)"))
        fields.append(("camera.frames_shown", "\(framesShown)"))
        fields.append(("camera.frames_dropped", "\(framesDropped)"))
        if let preview {
            fields.append(("camera.preview_skipped_for_recording", "\(preview.skippedForRecording)"))
            fields.append(("camera.preview_converted", "\(preview.converted)"))
            let mean = preview.converted > 0 ? preview.conversionSeconds / Double(preview.converted) * 1000 : 0
            fields.append(("camera.preview_conversion_ms", Self.decimal(mean, places: 2)))
        }
        return fields
    }

    static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale)
        let fraction = String(abs(scaled) % Int(scale))
        let padded = String(repeating: "0", count: max(0, places - fraction.count)) + fraction
        return places == 0 ? "\(whole)" : "\(scaled < 0 && whole == 0 ? "-" : "")\(whole).\(padded)"
    }
}
