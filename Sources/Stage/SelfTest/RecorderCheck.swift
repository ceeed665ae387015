import JSON

/// One trial encode: frames of the camera's format, size and rate fed to rig's recorder
/// in real time at a preset, as a take would (never the camera's pictures: nothing of
/// the room is recorded, and the file is deleted).
package struct RecorderTrial: Equatable, Sendable {
    package var preset: String
    package var width: Int
    package var height: Int
    package var framesPerSecond: Double
    package var offered: Int
    package var encoded: Int
    /// Lost to the encoder falling behind.
    package var dropped: Int
    /// From the last frame handed over to the file closed: the encoder's backlog.
    package var finishSeconds: Double
    /// The kiosk's CPU seconds per second during the trial (1.0 is one core).
    package var cpuPerSecond: Double

    package init(preset: String, width: Int, height: Int, framesPerSecond: Double, offered: Int, encoded: Int,
                 dropped: Int, finishSeconds: Double, cpuPerSecond: Double) {
        self.preset = preset
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.offered = offered
        self.encoded = encoded
        self.dropped = dropped
        self.finishSeconds = finishSeconds
        self.cpuPerSecond = cpuPerSecond
    }

    /// Nothing dropped, and the file closed within a second of the last frame.
    package var keptUp: Bool { dropped == 0 && encoded >= offered && finishSeconds < 1 }

    var json: JSONValue {
        ["preset": .string(preset), "size": .string("\(width)x\(height)"), "fps": .number(framesPerSecond),
         "offered": .int(offered), "encoded": .int(encoded), "dropped": .int(dropped),
         "finish_ms": .number(DisplayCheck.rounded(finishSeconds * 1000, 0)),
         "cpu_per_second": .number(DisplayCheck.rounded(cpuPerSecond, 2)), "kept_up": .bool(keptUp)]
    }

    var line: String {
        String(format: "preset %@ at %dx%d, %@ fps: %d of %d frames encoded, %d dropped, closed %.0f ms after the last; CPU %.2f cores",
               preset, width, height, CameraCheck.fps(framesPerSecond), encoded, offered, dropped, finishSeconds * 1000,
               cpuPerSecond)
    }
}

/// Whether the recorder keeps up with this camera at rig.toml's preset, and if not,
/// the faster preset that did.
package struct RecorderCheck: Equatable, Sendable {
    /// The configured preset's trial first, then each faster one tried.
    package var trials: [RecorderTrial]
    /// Why no trial ran: recording off, no camera streaming, the encoder refused.
    package var skipped: String?
    package var failure: String?
    /// The disk is below what the recorder keeps free: the storage's fix, not the encoder's.
    package var spaceShort = false

    package init(trials: [RecorderTrial] = [], skipped: String? = nil, failure: String? = nil, spaceShort: Bool = false) {
        self.trials = trials
        self.skipped = skipped
        self.failure = failure
        self.spaceShort = spaceShort
    }

    package var step: SelfTestStep {
        var json: [String: JSONValue] = ["trials": .array(trials.map(\.json))]
        json["skipped"] = .optional(skipped)
        let title = "Recording"
        if let skipped {
            return SelfTestStep(id: "recording", title: title, verdict: .ok, lines: [skipped], figures: json)
        }
        var lines = trials.map { "trial encode, " + $0.line }
        if let failure {
            lines.append("the recorder could not start: \(failure)")
            return SelfTestStep(id: "recording", title: title, verdict: .problem, lines: lines,
                                fix: spaceShort ? "Takes and game attempts cannot be recorded until there is space: see Storage."
                                    : "Takes and game attempts cannot be recorded; the journal (journalctl -u rig) has the encoder's error.",
                                finding: lines.last, figures: json)
        }
        guard let configured = trials.first else {
            return SelfTestStep(id: "recording", title: title, verdict: .warning, lines: ["no trial ran"], figures: json)
        }
        if configured.keptUp {
            return SelfTestStep(id: "recording", title: title, verdict: .ok,
                                lines: lines + ["the recorder keeps up with this camera at preset \(configured.preset)"], figures: json)
        }
        if let faster = trials.dropFirst().first(where: \.keptUp) {
            json["suggested_preset"] = .string(faster.preset)
            let finding = "at preset \(configured.preset) the recorder falls behind this camera; \(faster.preset) keeps up"
            return SelfTestStep(id: "recording", title: title, verdict: .problem, lines: lines + [finding],
                                fix: "Set [recording] preset = \"\(faster.preset)\" in rig.toml: files are a little larger, and no frame is lost.",
                                finding: finding, figures: json)
        }
        let finding = "the recorder falls behind this camera even at the fastest preset tried"
        return SelfTestStep(id: "recording", title: title, verdict: .problem, lines: lines + [finding],
                            fix: "Record a smaller size or rate ([camera] width, height, fps), or use a faster machine.",
                            finding: finding, figures: json)
    }

    /// The presets rig.toml takes, fastest first; the next faster one of `preset`.
    package static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"]

    package static func faster(than preset: String) -> String? {
        guard let index = presets.firstIndex(of: preset), index > 0 else { return nil }
        return presets[index - 1]
    }
}
