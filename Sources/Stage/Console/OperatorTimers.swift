import Foundation
import Prompter
import Render

/// The operator screen's timers and marker list: elapsed, left at this speed, the
/// clock time the script ends, a free-running wall clock, and each marker with the
/// reading time to it from the top at the current speed.
package enum OperatorTimers {
    /// "1:05 elapsed · 3:10 left · ends 14:05:30 · " (the wall clock follows).
    package static func line(_ timers: PrompterTimers) -> String {
        var parts = ["\(ReadingStopwatch.clock(timers.elapsed)) elapsed",
                     "\(ReadingStopwatch.clock(timers.remaining)) left",
                     "ends \(TimeText.clock(timers.endsAt))"]
        if let left = timers.targetLeft { parts.append("finish in \(ReadingStopwatch.clock(left))") }
        return parts.joined(separator: "   ·   ") + "   ·   clock "
    }

    /// "1 Opening 0:00 · 2 Weather 0:45 · …", nil without markers.
    package static func markerLine(_ markers: [PlacedMarker], speed: Int) -> String? {
        guard !markers.isEmpty else { return nil }
        let speed = Double(max(1, speed))
        return "Markers:  " + markers.map { "\($0.number) \($0.label) \(ReadingStopwatch.clock($0.offset / speed))" }
            .joined(separator: "   ·   ")
    }

    /// Draws the timers line (and the marker list under it) into `area`; returns the height used.
    @discardableResult
    package static func build(_ model: ConsoleModel, panel: WidgetPanel, area: PixelRect) -> Int {
        let theme = panel.theme
        var y = area.y
        if let timers = model.timers {
            let percent = Int((model.progress * 100).rounded(.down))
            var text = "\(percent) %   ·   " + timers.line
            if let problem = timers.problem { text += "   ·   \(problem)" }
            y += panel.text(text, x: area.x, y: y, size: theme.smallTextSize, color: theme.secondaryText,
                            maxWidth: area.width, singleLine: true)
        }
        if let markers = model.prompter.markerLine {
            y += panel.text(markers, x: area.x, y: y, size: theme.smallTextSize, color: theme.secondaryText,
                            maxWidth: area.width, singleLine: true)
        }
        return y - area.y
    }
}

/// The timers line as one inner frame shows it: its words (the wall clock to the
/// second), the pace and a "finish in" problem. Compared with the rest of the frame's
/// input, so the console is drawn again when a second ticks, not at every vblank.
package struct TimersShown: Equatable {
    package var line: String
    package var wordsPerMinute: Int?
    package var problem: String?

    package init(_ timers: PrompterTimers) {
        line = OperatorTimers.line(timers) + TimeText.clock(timers.now)
        wordsPerMinute = timers.wordsPerMinute
        problem = timers.targetProblem
    }
}
