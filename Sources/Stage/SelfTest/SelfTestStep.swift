import JSON

/// How one part of the owner's rig fared: fine, worth a look, or something that will
/// fail on the night.
package enum SelfTestVerdict: String, Comparable, Sendable, CaseIterable {
    case ok, warning, problem

    package static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }
    private var rank: Int { self == .ok ? 0 : self == .warning ? 1 : 2 }
}

/// One step of a self-test as it is printed and kept: what was checked, the verdict,
/// the figures in words and as data, and the fix when there is one.
package struct SelfTestStep: Equatable, Sendable {
    /// Stable key for scripts: "display.outer", "touch", "camera", "sound", …
    package var id: String
    package var title: String
    package var verdict: SelfTestVerdict
    /// What was found, a sentence each, with the figures.
    package var lines: [String]
    /// What to do about a warning or a problem.
    package var fix: String?
    /// Of the lines, the one that says why the verdict is not ok (the console's results
    /// show it and the fix); nil: the first line.
    package var finding: String?
    /// The same figures for `--json`.
    package var figures: [String: JSONValue]

    package init(id: String, title: String, verdict: SelfTestVerdict, lines: [String], fix: String? = nil,
                 finding: String? = nil, figures: [String: JSONValue] = [:]) {
        self.finding = finding
        self.id = id
        self.title = title
        self.verdict = verdict
        self.lines = lines
        self.fix = fix
        self.figures = figures
    }

    package var json: JSONValue {
        .object(["id": .string(id), "title": .string(title), "verdict": .string(verdict.rawValue),
                 "lines": .array(lines.map(JSONValue.string)), "fix": .optional(fix),
                 "finding": .optional(verdict == .ok ? nil : finding ?? lines.first), "figures": .object(figures)])
    }

    /// A step as `json` wrote it (`rig selftest` reads a running kiosk's report so).
    package init?(json: JSONValue) {
        guard let id = json["id"]?.stringValue, let title = json["title"]?.stringValue,
              let verdict = json["verdict"]?.stringValue.flatMap(SelfTestVerdict.init(rawValue:)) else { return nil }
        var figures: [String: JSONValue] = [:]
        if case let .object(members)? = json["figures"] { figures = members }
        self.init(id: id, title: title, verdict: verdict,
                  lines: (json["lines"]?.arrayValue ?? []).compactMap(\.stringValue), fix: json["fix"]?.stringValue,
                  finding: json["finding"]?.stringValue, figures: figures)
    }

    /// As printed: a verdict column, the title, then the lines and the fix indented.
    package var text: [String] {
        let mark = verdict == .ok ? "ok     " : verdict == .warning ? "WARNING" : "PROBLEM"
        return ["\(mark) \(title)"] + lines.map { "        \($0)" } + (fix.map { ["        fix: \($0)"] } ?? [])
    }
}
