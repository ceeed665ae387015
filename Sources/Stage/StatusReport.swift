import Prompter

/// `rig ctl status`: everything an operator, a bridge or a test wants to know, as one
/// JSON object. The schema is documented in the README; keys are only ever added.
package struct StatusReport {
    package var controller: PrompterController
    package var displays: [DisplayRole: DisplayStatus]
    package var camera: JSONValue
    package var input: JSONValue
    package var latency: JSONValue
    package var time: Double
    /// The operator console's screen, focus, search and dialog.
    package var console: JSONValue = .null

    package var json: JSONValue {
        let engine = controller.engine
        let script = controller.script
        var prompter: [String: JSONValue] = [
            "state": .string(engine.state(at: time).rawValue),
            "script": .optional(script?.id),
            "title": .optional(script?.title),
            "offset": .number((engine.offset(at: time) * 10).rounded() / 10),
            "max_offset": engine.maxOffset.isFinite ? .number(engine.maxOffset) : .null,
            "speed": .int(engine.speed),
            "rate": .number((engine.signedRate(at: time) * 10).rounded() / 10),
            "ended": .bool(engine.isEnded(at: time)),
            "paused_by_tap": .bool(controller.pausedByTap),
            "blanked": .bool(controller.blanked),
        ]
        prompter["words"] = script.map { .int($0.wordCount) } ?? .null
        // The outer layout's line at the reading line (what voice follow's lines count).
        prompter["line"] = script == nil ? .null : controller.markerLayout?.lineIndex(engine.offset(at: time)).map { .int($0) } ?? .null
        let settings = controller.settings
        return [
            "ok": true,
            "time": .number(time),
            "mode": .string(controller.mode.rawValue),
            "prompter": .object(prompter),
            "settings": [
                "font_family": .string(settings.fontFamily.rawValue),
                "font_size": .int(settings.fontSize),
                "line_spacing": .number(settings.lineSpacing),
                "margin": .number(settings.margin),
                "text_color": .string(settings.textColor.rawValue),
                "background_color": .string(settings.backgroundColor.rawValue),
                "mirror": .bool(settings.mirror),
                "flip": .bool(settings.flip),
                "rotation": .int(settings.rotation.rawValue),
            ],
            "displays": .object(Dictionary(uniqueKeysWithValues: DisplayRole.allCases.map {
                ($0.rawValue, displays[$0].map(Self.display) ?? .null)
            })),
            "camera": camera,
            "input": input,
            "latency": latency,
            "problems": .array(controller.problems.lines.map { .string($0) }),
            "console": console,
        ]
    }

    package static func display(_ status: DisplayStatus) -> JSONValue {
        [
            "connector": .string(status.connector),
            "connected": .bool(status.connected),
            "available": .bool(status.available),
            "enabled": .bool(status.enabled),
            "presenting": .bool(status.showsContent),
            "mode": .optional(status.mode.map { "\($0)" }),
            "flips": .int(Int(status.flips)),
            "missed": .int(Int(status.missedVblanks)),
            "last_flip": status.lastFlip.map { ["time": .number($0.time), "sequence": .int(Int($0.sequence))] } ?? .null,
        ]
    }
}

extension TapLatencyHistogram.Summary {
    package var json: JSONValue {
        [
            "count": .int(count),
            "median_ms": medianMilliseconds.map { .number($0) } ?? .null,
            "p99_ms": p99Milliseconds.map { .number($0) } ?? .null,
            "max_ms": maximumMilliseconds.map { .number($0) } ?? .null,
            "buckets": .array(buckets.map { ["up_to_ms": $0.upToMilliseconds.map { .number($0) } ?? .null, "count": .int($0.count)] }),
        ]
    }
}
