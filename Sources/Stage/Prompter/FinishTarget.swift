import Foundation
import Prompter

/// "Finish in 4:30": when the rest of the script should end (stage time), and why it
/// can no longer be met. The controller fits the speed to it when it is set, and again
/// after a font change, a pause or a resume; a speed set by hand drops it.
package struct FinishTarget: Equatable {
    package let end: Double
    /// Why the end can no longer be met, shown with it.
    package var problem: String?

    /// Seconds left at `t`.
    package func left(at t: Double) -> Double { max(0, end - t) }

    /// The speed (px/s) that brings the end of the text to the reading line `seconds`
    /// from `t`, from where `engine` is then; refused outside the speed range.
    static func fittedSpeed(seconds: Double, engine: PrompterEngine, at t: Double) throws(PaceError) -> Int {
        guard seconds > 0 else { throw .badDuration }
        let distance = max(0, engine.maxOffset - engine.positionIgnoringGlide(at: t))
        // The ramp from the rate r now to the new speed v costs (v − r)·R/2 px against an
        // instant change, so d = v·s − (v − r)·R/2 and v = (d − r·R/2) / (s − R/2).
        let halfRamp = PrompterEngine.rampDuration / 2
        let rate = engine.isCountingDown(at: t) ? 0 : engine.currentRate(at: t)
        let wanted = max(0, distance - rate * halfRamp) / max(0.001, seconds - halfRamp)
        let speed = Int(wanted.rounded())
        guard ScrollSpeed.range.contains(speed) else {
            throw .outOfRange(what: "finishing in \(ReadingStopwatch.clock(seconds))", speed: wanted)
        }
        return speed
    }

    /// "4:30", "1:02:00" or "90" (seconds) as seconds; nil when it is none of these.
    package static func seconds(from text: String) -> Double? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0.0
        for (index, part) in parts.enumerated() {
            guard let value = Double(part), value >= 0, value.isFinite, index == 0 || value < 60 else { return nil }
            total = total * 60 + value
        }
        return total
    }
}
