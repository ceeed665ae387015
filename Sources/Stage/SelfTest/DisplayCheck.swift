import Foundation
import JSON

/// What the display side says of one head for the self-test: its connector, the modes
/// the monitor offers and the one the kiosk chose, and why.
package struct DisplayFacts: Equatable, Sendable {
    package var connector: String
    package var connected: Bool
    /// "1920x1080@60.00", the monitor's preferred one marked with *.
    package var modes: [String]
    package var chosen: VideoMode?
    /// "the monitor's preferred mode", "rig.toml asks for 1280x720", …
    package var why: String
    /// The flips' sequence numbers are a kernel's vblank counter (false: the headless
    /// backend's, which count flips).
    package var vblankCounter = true

    package init(connector: String, connected: Bool, modes: [String], chosen: VideoMode?, why: String) {
        self.connector = connector
        self.connected = connected
        self.modes = modes
        self.chosen = chosen
        self.why = why
    }
}

/// One head's verdict from its flips while the test card moved every frame: the refresh
/// against the mode's, how evenly the flips came, and how many vblanks passed without
/// a new frame. Where the driver counts vblanks (real GPUs) the kernel's counter and
/// timestamps say all three; where it does not (virtio-gpu completes flips with no
/// counter), the flips' own pace and the frame pacer's count of late frames do.
package struct DisplayCheck {
    package var role: DisplayRole
    package var facts: DisplayFacts
    /// The completed flips in the measuring window, oldest first.
    package var flips: [FlipStamp]
    /// How long the window was.
    package var seconds: Double
    /// Vblanks the frame pacer counted missed in the window (flips later than aimed for).
    package var pacerMissed: Int

    package init(role: DisplayRole, facts: DisplayFacts, flips: [FlipStamp], seconds: Double, pacerMissed: Int = 0) {
        self.role = role
        self.facts = facts
        self.flips = flips
        self.seconds = seconds
        self.pacerMissed = pacerMissed
    }

    /// Refresh within this share of the mode's is the mode's (EDID rates are rounded).
    static let refreshTolerance = 0.01
    /// More missed vblanks than this share of the window's is a warning.
    static let missedShare = 0.01
    /// A flip later than this after its vblank's due time, at the 99th percentile.
    static let jitterLimit = 0.002

    package struct Figures: Equatable {
        /// The refresh the kernel's vblank counter shows; nil when the driver keeps none.
        package var refreshHz: Double?
        package var flipsPerSecond: Double
        package var jitterP50: Double
        package var jitterP99: Double
        package var missed: Int
        package var vblanks: Int
        /// The kernel's vblank counter moved with the flips.
        package var counted: Bool
    }

    /// nil with fewer than two flips.
    package var figures: Figures? {
        guard flips.count >= 2, let first = flips.first, let last = flips.last, last.time > first.time else { return nil }
        let intervals = zip(flips, flips.dropFirst()).map { $1.time - $0.time }
        let counted = facts.vblankCounter && last.sequence > first.sequence
        let period: Double
        let steps: [Int]
        if counted {
            period = (last.time - first.time) / Double(last.sequence - first.sequence)
            steps = zip(flips, flips.dropFirst()).map { max(1, Int($1.sequence &- $0.sequence)) }
        } else {
            // No counter: the monitor's refresh cannot be seen; flips are timed against
            // the mode's period, which the kiosk paces them on.
            period = facts.chosen?.period ?? 1.0 / 60
            steps = intervals.map { max(1, Int(($0 / period).rounded())) }
        }
        var jitter = zip(intervals, steps).map { abs($0 - Double($1) * period) }
        jitter.sort()
        func percentile(_ p: Double) -> Double { jitter[min(jitter.count - 1, Int(Double(jitter.count - 1) * p + 0.5))] }
        let missed = counted ? steps.reduce(0) { $0 + $1 - 1 } : pacerMissed
        return Figures(refreshHz: counted ? 1 / period : nil, flipsPerSecond: Double(flips.count - 1) / (last.time - first.time),
                       jitterP50: percentile(0.5), jitterP99: percentile(0.99), missed: missed,
                       vblanks: steps.reduce(0, +), counted: counted)
    }

    package var step: SelfTestStep {
        let name = role == .inner ? "Inner display (operator)" : "Outer display (talent)"
        var lines = ["\(facts.connector): " + (facts.chosen.map { "\($0), \(facts.why)" } ?? "no mode")]
        if !facts.modes.isEmpty { lines.append("modes offered: " + facts.modes.prefix(8).joined(separator: ", ")
            + (facts.modes.count > 8 ? " and \(facts.modes.count - 8) more" : "")) }
        var json: [String: JSONValue] = ["connector": .string(facts.connector), "connected": .bool(facts.connected),
                                         "modes": .array(facts.modes.map(JSONValue.string)),
                                         "mode": .optional(facts.chosen.map { "\($0)" }), "why": .string(facts.why)]
        let id = "display.\(role.rawValue)"
        guard facts.connected, let mode = facts.chosen else {
            return SelfTestStep(id: id, title: name, verdict: .problem,
                                lines: lines + ["no monitor on \(facts.connector)"],
                                fix: "Plug the \(role == .inner ? "operator's" : "talent's") monitor into \(facts.connector), or name its connector in rig.toml's [displays.\(role.rawValue)] connector (rig devices lists them).",
                                finding: "no monitor on \(facts.connector)", figures: json)
        }
        guard let figures else {
            return SelfTestStep(id: id, title: name, verdict: .problem,
                                lines: lines + [String(format: "no frame reached the monitor in %.0f s", seconds)],
                                fix: "The display did not complete a page flip: check the cable, and the journal (journalctl -u rig) for the driver's error.",
                                finding: String(format: "no frame reached the monitor in %.0f s", seconds), figures: json)
        }
        let nominal = mode.refresh
        json["refresh_hz"] = figures.refreshHz.map { .number(Self.rounded($0, 3)) } ?? .null
        json["nominal_hz"] = .number(Self.rounded(nominal, 3))
        json["flips_per_second"] = .number(Self.rounded(figures.flipsPerSecond, 2))
        json["jitter_p50_ms"] = .number(Self.rounded(figures.jitterP50 * 1000, 3))
        json["jitter_p99_ms"] = .number(Self.rounded(figures.jitterP99 * 1000, 3))
        json["missed_vblanks"] = .int(figures.missed)
        json["vblanks"] = .int(figures.vblanks)
        json["vblank_counter"] = .bool(figures.counted)
        if let refresh = figures.refreshHz {
            lines.append(String(format: "refresh %.2f Hz measured over %.0f s (the mode says %.2f Hz)", refresh, seconds, nominal))
        } else {
            lines.append(String(format: "%.1f flips a second over %.0f s at the mode's %.2f Hz; the driver keeps no vblank counter, so the monitor's own refresh cannot be measured",
                                figures.flipsPerSecond, seconds, nominal))
        }
        lines.append(String(format: "flip timing: p50 %.2f ms, p99 %.2f ms off the vblank; %d of %d vblanks missed",
                            figures.jitterP50 * 1000, figures.jitterP99 * 1000, figures.missed, figures.vblanks))
        if nominal > 0, let refresh = figures.refreshHz, abs(refresh - nominal) / nominal > Self.refreshTolerance {
            return SelfTestStep(id: id, title: name, verdict: .problem, lines: lines,
                                fix: String(format: "The monitor runs at %.2f Hz, not the mode's %.2f Hz: scrolling will not be even. Choose another mode in [displays.\(role.rawValue)] mode (rig devices lists them).", refresh, nominal),
                                finding: lines[lines.count - 2], figures: json)
        }
        if Double(figures.missed) > Double(figures.vblanks) * Self.missedShare || figures.jitterP99 > Self.jitterLimit {
            return SelfTestStep(id: id, title: name, verdict: .warning, lines: lines,
                                fix: "Frames came late: something else is using the CPU or GPU, or this machine is slow for \(mode.width)x\(mode.height). A smaller mode in [displays.\(role.rawValue)] mode halves the work.",
                                finding: lines.last, figures: json)
        }
        return SelfTestStep(id: id, title: name, verdict: .ok, lines: lines, figures: json)
    }

    static func rounded(_ value: Double, _ places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }
}
