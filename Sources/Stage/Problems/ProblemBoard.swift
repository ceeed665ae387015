/// Which part of the rig a banner line belongs to. A device that comes back clears its
/// own line and no other; a source with a detail (a connector, a device name) keeps one
/// line per detail.
package struct ProblemSource: Hashable, Sendable, CustomStringConvertible {
    package let name: String

    package init(_ name: String) { self.name = name }

    /// The same part of the rig, one of several of its things (`displays: HDMI-A-1`).
    package func detail(_ detail: String) -> ProblemSource { ProblemSource("\(name): \(detail)") }

    package var description: String { name }

    /// rig.toml's errors, read at start.
    package static let config = ProblemSource("config")
    package static let library = ProblemSource("scripts folder")
    package static let fonts = ProblemSource("fonts")
    package static let displays = ProblemSource("displays")
    package static let controlSocket = ProblemSource("control socket")
    package static let input = ProblemSource("input")
    package static let camera = ProblemSource("camera")
    package static let soundOutput = ProblemSource("sound output")
    package static let soundInput = ProblemSource("microphone")
    package static let remote = ProblemSource("remote control")
    /// A prompter take that ended by itself, or did not start.
    package static let take = ProblemSource("take")
    package static let follow = ProblemSource("voice follow")
    /// A follower rig's lead: lost, taken over here, its script, the clocks.
    package static let followRig = ProblemSource("follow rig")
    /// The prompter's own: a settings file it could not read, a script shown repaired.
    package static let prompter = ProblemSource("prompter")
}

/// The operator's banner: what went wrong and is still wrong, in the order it was
/// reported, each line under its source. Lines are logged once, when they appear.
/// Owned by the stage; the kiosk reports into it with `StageEvent.problems`.
package final class ProblemBoard {
    private var entries: [(source: ProblemSource, lines: [String])] = []
    /// Called when the banner's lines changed.
    package var onChange: () -> Void = {}

    package init() {}

    /// Every line, oldest source first.
    package var lines: [String] { entries.flatMap(\.lines) }

    package func lines(of source: ProblemSource) -> [String] {
        entries.first { $0.source == source }?.lines ?? []
    }

    /// `source`'s lines are these now (none: it is fine again).
    package func set(_ lines: [String], for source: ProblemSource) {
        let old = self.lines(of: source)
        guard lines != old else { return }
        for line in lines where !old.contains(line) { KioskLog.warning(line) }
        if let index = entries.firstIndex(where: { $0.source == source }) {
            if lines.isEmpty { entries.remove(at: index) } else { entries[index].lines = lines }
        } else if !lines.isEmpty {
            entries.append((source, lines))
        }
        onChange()
    }

    /// One more line of `source` (the prompter's own problems accumulate).
    package func add(_ line: String, for source: ProblemSource) {
        set(lines(of: source) + [line], for: source)
    }
}
