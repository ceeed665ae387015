import JSON

/// A whole self-test: its steps in the order they ran, and whether it has finished.
package struct SelfTestReport: Equatable, Sendable {
    package var started: String
    package var steps: [SelfTestStep] = []
    package var finished = false
    /// The step running now, for the console and `rig selftest` while they wait.
    package var running: String?

    package init(started: String) { self.started = started }

    /// A report as `json` wrote it (`rig selftest` reads a running kiosk's).
    package init?(json: JSONValue) {
        guard let started = json["started"]?.stringValue else { return nil }
        self.started = started
        steps = (json["steps"]?.arrayValue ?? []).compactMap(SelfTestStep.init(json:))
        finished = json["finished"]?.boolValue ?? false
        running = json["running"]?.stringValue
    }

    package var verdict: SelfTestVerdict { steps.map(\.verdict).max() ?? .ok }

    package var json: JSONValue {
        .object(["started": .string(started), "finished": .bool(finished), "verdict": .string(verdict.rawValue),
                 "running": .optional(running), "steps": .array(steps.map(\.json))])
    }

    /// The summary line printed last.
    package var summary: String {
        let problems = steps.filter { $0.verdict == .problem }.count
        let warnings = steps.filter { $0.verdict == .warning }.count
        if problems == 0 && warnings == 0 { return "Self-test passed: \(steps.count) checks, all ok." }
        return "Self-test: \(problems) problem(s), \(warnings) warning(s) in \(steps.count) checks."
    }
}
