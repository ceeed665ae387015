import JSON

/// The talent's touchscreen from taps on the test card: whether taps land on the outer
/// display, and how long a tap takes to change what the talent sees.
package struct TouchCheck {
    /// The kiosk has a touchscreen it gives the outer display.
    package var outerTouchscreen: Bool
    /// Its name, as `[touch] device` and `rig devices` call it.
    package var name: String?
    /// Taps the outer's tap recognizer accepted.
    package var outerTaps: Int
    /// Touches that arrived on the inner display meanwhile.
    package var innerTouches: Int
    /// From a tap's finger-down to the flip of the first outer frame that showed it.
    package var latencies: [Double]
    package var wanted: Int
    package var seconds: Double

    package init(outerTouchscreen: Bool, outerTaps: Int, innerTouches: Int, latencies: [Double], wanted: Int,
                 seconds: Double) {
        self.outerTouchscreen = outerTouchscreen
        self.outerTaps = outerTaps
        self.innerTouches = innerTouches
        self.latencies = latencies
        self.wanted = wanted
        self.seconds = seconds
    }

    /// A tap the talent sees later than this feels unanswered.
    static let latencyLimit = 0.1

    package var step: SelfTestStep {
        let sorted = latencies.sorted()
        let median = sorted.isEmpty ? nil : sorted[sorted.count / 2]
        var json: [String: JSONValue] = ["outer_touchscreen": .bool(outerTouchscreen), "outer_taps": .int(outerTaps),
                                         "inner_touches": .int(innerTouches),
                                         "tap_to_flip_ms": .array(latencies.map { .number(DisplayCheck.rounded($0 * 1000, 1)) })]
        json["tap_to_flip_median_ms"] = median.map { .number(DisplayCheck.rounded($0 * 1000, 1)) } ?? .null
        var lines: [String] = []
        if let name { lines.append("the outer display's touchscreen: \(name)") }
        json["touchscreen"] = .optional(name)
        lines.append("\(outerTaps) tap(s) on the outer display, \(innerTouches) touch(es) on the inner")
        if let median, let worst = sorted.last {
            lines.append(String(format: "tap to the talent's display: median %.0f ms, slowest %.0f ms over %d taps",
                                median * 1000, worst * 1000, latencies.count))
        }
        var finding: String?
        let step = { (verdict: SelfTestVerdict, fix: String?) in
            SelfTestStep(id: "touch", title: "Touch (talent's tap)", verdict: verdict, lines: lines, fix: fix,
                         finding: finding, figures: json)
        }
        if innerTouches > 0 && outerTaps == 0 {
            lines.insert("the taps on the outer display's card arrived on the inner display", at: 0)
            return step(.problem, "The touchscreen is mapped to the wrong monitor. Name it in rig.toml: [touch] device = \"its name\" (rig devices lists the touchscreens and which display each belongs to).")
        }
        if !outerTouchscreen && outerTaps == 0 {
            lines.insert("no touchscreen belongs to the outer display", at: 0)
            return step(.problem, "Connect the talent's touchscreen (USB), or name it in [touch] device. Without it the talent cannot pause the text.")
        }
        if outerTaps == 0 {
            lines.insert(String(format: "no tap on the outer display in %.0f s", seconds), at: 0)
            return step(.warning, "Tap the target on the talent's display during the self-test; if taps do nothing, check the touchscreen's USB cable.")
        }
        if let median, median > Self.latencyLimit {
            finding = lines.last
            return step(.warning, "Taps are slow to show: the CPU may be busy (a recording at a slow preset), or the touchscreen reports late.")
        }
        if outerTaps < wanted {
            lines.append("fewer taps than the \(wanted) asked for")
        }
        return step(.ok, nil)
    }
}
