import JSON

/// What the camera side says for the self-test: what rig.toml asks for, what the camera
/// offers, and the mode it streams in now.
package struct CameraFacts: Equatable, Sendable {
    package struct Streaming: Equatable, Sendable {
        package var format: String
        package var width: Int
        package var height: Int
        package var framesPerSecond: Double
        /// libv4l2 decodes it (MJPEG) on the CPU before rig sees it.
        package var emulated: Bool

        package init(format: String, width: Int, height: Int, framesPerSecond: Double, emulated: Bool) {
            self.format = format
            self.width = width
            self.height = height
            self.framesPerSecond = framesPerSecond
            self.emulated = emulated
        }
    }

    package var device: String
    package var requestedWidth: Int
    package var requestedHeight: Int
    package var requestedFramesPerSecond: Double
    /// "streaming …", "unavailable: …"
    package var state: String
    package var streaming: Streaming?
    /// The formats, sizes and rates the camera offers, a line each.
    package var offered: [String]

    package init(device: String, requestedWidth: Int, requestedHeight: Int, requestedFramesPerSecond: Double,
                 state: String, streaming: Streaming?, offered: [String]) {
        self.device = device
        self.requestedWidth = requestedWidth
        self.requestedHeight = requestedHeight
        self.requestedFramesPerSecond = requestedFramesPerSecond
        self.state = state
        self.streaming = streaming
        self.offered = offered
    }
}

/// The camera's verdict: the request met (natively or through libv4l2's decode), and
/// the frames that actually arrived on the loop while the displays were measured.
package struct CameraCheck {
    /// nil: no camera in rig.toml.
    package var facts: CameraFacts?
    /// Frames that reached the loop in the window, and the window.
    package var frames: Int
    package var seconds: Double
    /// From a frame's capture (the driver's timestamp) to the flip of the outer frame
    /// showing it in the talent's preview.
    package var latencies: [Double]
    /// The capture thread's CPU per frame that arrived (its dequeue, libv4l2's decode
    /// when it decodes, the copy into the frame pool).
    package var captureCPUPerFrame: Double?

    package init(facts: CameraFacts?, frames: Int, seconds: Double, latencies: [Double] = []) {
        self.facts = facts
        self.frames = frames
        self.seconds = seconds
        self.latencies = latencies
    }

    /// A preview later than this is seen to lag the talent's movements.
    static let latencyLimit = 0.1

    /// Below this share of the mode's rate the preview and recordings stutter.
    static let rateShare = 0.9

    package var step: SelfTestStep {
        guard let facts else {
            return SelfTestStep(id: "camera", title: "Camera", verdict: .ok, lines: ["no camera: [camera] enabled = false"],
                                figures: ["enabled": false])
        }
        let requested = "\(facts.requestedWidth)x\(facts.requestedHeight) at \(Self.fps(facts.requestedFramesPerSecond)) fps"
        var lines = ["\(facts.device): \(facts.state)", "rig.toml asks for \(requested)"]
        lines += facts.offered.prefix(6).map { "offers \($0)" }
        let rate = seconds > 0 ? Double(frames) / seconds : 0
        var json: [String: JSONValue] = ["enabled": true, "device": .string(facts.device), "state": .string(facts.state),
                                         "requested": .string(requested),
                                         "offered": .array(facts.offered.map(JSONValue.string)),
                                         "frames": .int(frames), "measured_fps": .number(DisplayCheck.rounded(rate, 2))]
        guard let mode = facts.streaming else {
            return SelfTestStep(id: "camera", title: "Camera", verdict: .problem, lines: lines,
                                fix: "The camera does not stream. Plug it in (USB), or name it in [camera] device (rig devices lists the cameras).",
                                figures: json)
        }
        json["mode"] = .string("\(mode.format) \(mode.width)x\(mode.height)@\(Self.fps(mode.framesPerSecond))")
        json["emulated"] = .bool(mode.emulated)
        lines.append("streams \(mode.format) \(mode.width)x\(mode.height) at \(Self.fps(mode.framesPerSecond)) fps"
                     + (mode.emulated ? ", decoded from MJPEG by libv4l2 on the CPU" : ", natively"))
        lines.append(String(format: "%d frames in %.0f s: %.1f fps", frames, seconds, rate))
        let streams = lines[lines.count - 2], arrived = lines[lines.count - 1]
        if let cpu = captureCPUPerFrame {
            lines.append(String(format: "the capture thread uses %.1f ms of CPU per frame", cpu * 1000)
                         + (mode.emulated ? ", most of it libv4l2 decoding MJPEG" : ""))
            json["capture_cpu_ms_per_frame"] = .number(DisplayCheck.rounded(cpu * 1000, 2))
        }
        let sorted = latencies.sorted()
        // A frame shown before it was captured: the camera's timestamps are not on the
        // display's clock (some drivers stamp ahead), so no latency can be claimed.
        let comparable = sorted.filter { $0 < 0 }.count * 10 <= sorted.count
        let median = sorted.isEmpty || !comparable ? nil : sorted[sorted.count / 2]
        json["frame_to_flip_comparable"] = .bool(comparable)
        if !comparable {
            lines.append("the camera's timestamps run ahead of the display's flips (\(sorted.filter { $0 < 0 }.count) of \(sorted.count) frames shown before their capture time): capture-to-flip latency cannot be measured with this driver")
        }
        if let median, let worst = sorted.last {
            let p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * 0.99 + 0.5))]
            lines.append(String(format: "capture to the talent's display: median %.0f ms, p99 %.0f ms, slowest %.0f ms over %d frames",
                                median * 1000, p99 * 1000, worst * 1000, latencies.count))
            json["frame_to_flip_median_ms"] = .number(DisplayCheck.rounded(median * 1000, 1))
            json["frame_to_flip_p99_ms"] = .number(DisplayCheck.rounded(p99 * 1000, 1))
        }
        var finding: String?
        let step = { (verdict: SelfTestVerdict, fix: String?) in
            SelfTestStep(id: "camera", title: "Camera", verdict: verdict, lines: lines, fix: fix, finding: finding, figures: json)
        }
        let area = mode.width * mode.height
        let wanted = facts.requestedWidth * facts.requestedHeight
        if area * 2 <= wanted {
            lines.insert("the camera gives \(mode.width)x\(mode.height) at the rate asked: less than half the \(facts.requestedWidth)x\(facts.requestedHeight) asked for", at: 0)
            return step(.problem, "Recordings will be \(mode.width)x\(mode.height). Use a camera that offers \(requested), or ask in [camera] width, height and fps for what this one offers (listed above).")
        }
        if rate < mode.framesPerSecond * Self.rateShare {
            finding = arrived
            return step(.warning, String(format: "The camera delivers %.1f of its %@ fps: give it more light (many webcams halve their rate in the dark), or a USB port of its own.", rate, Self.fps(mode.framesPerSecond)))
        }
        if let median, median > Self.latencyLimit {
            finding = lines.first { $0.hasPrefix("capture to the talent's display") }
            return step(.warning, "The preview lags: frames take longer than 100 ms from the camera to the talent's display. A smaller camera size, or a faster CPU, shortens it.")
        }
        if area < wanted || mode.framesPerSecond < facts.requestedFramesPerSecond * Self.rateShare {
            finding = streams
            return step(.warning, "The camera cannot give \(requested); it streams the nearest it offers.")
        }
        if mode.emulated {
            finding = streams
            return step(.warning, "This camera gives \(mode.width)x\(mode.height) only as MJPEG, which libv4l2 decodes on the CPU for every frame. Fine on a fast CPU; on a slow one ask for a size it offers as YUYV.")
        }
        return step(.ok, nil)
    }

    static func fps(_ value: Double) -> String {
        value.rounded() == value ? "\(Int(value))" : String(format: "%.2f", value)
    }
}
