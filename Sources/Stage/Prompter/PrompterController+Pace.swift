import Foundation
import Prompter

/// Speed by words per minute and by deadline.
extension PrompterController {
    /// Words per minute at `speed` px/s in the current layout; nil before a layout.
    package func wordsPerMinute(atSpeed speed: Int) -> Int? {
        guard let density = markerLayout?.wordsPerPixel() else { return nil }
        return Int((Double(speed) * density * 60).rounded())
    }

    /// The speed (px/s) that reads `wpm` words per minute in the current layout, unclamped.
    package func speed(forWordsPerMinute wpm: Int) -> Double? {
        guard let density = markerLayout?.wordsPerPixel(), density > 0 else { return nil }
        return Double(wpm) / 60 / density
    }

    /// Sets the speed to read `wpm` words per minute at the current font and column.
    /// Refused with the reason when the layout is not known or the speed is out of range.
    @discardableResult
    package func setWordsPerMinute(_ wpm: Int, at t: Double) throws(PaceError) -> Int {
        guard wpm > 0 else { throw .badWordsPerMinute(wpm) }
        guard let wanted = speed(forWordsPerMinute: wpm) else { throw .noLayout }
        let speed = Int(wanted.rounded())
        guard ScrollSpeed.range.contains(speed) else {
            throw .outOfRange(what: "\(wpm) words per minute", speed: wanted)
        }
        targetEnd = nil
        targetProblem = nil
        setSpeed(speed, at: t)
        return speed
    }

    /// "Finish in 4:30": fits the speed so the rest of the script ends `seconds` from
    /// now, and keeps it fitted (`refitTarget`). Refused when the fit is outside
    /// the speed range; the speed is unchanged then.
    @discardableResult
    package func finish(in seconds: Double, at t: Double) throws(PaceError) -> Int {
        guard seconds.isFinite, seconds > 0 else { throw .badDuration }
        guard script != nil, engine.maxOffset.isFinite else { throw .noLayout }
        let speed = try fittedSpeed(seconds: seconds, at: t)
        targetEnd = t + seconds
        targetProblem = nil
        setSpeedKeepingTarget(speed, at: t)
        KioskLog.info("speed fitted to finish in \(ReadingStopwatch.clock(seconds)): \(speed) px/s")
        return speed
    }

    /// Drops the deadline (`rig ctl finish off`, a speed set by hand).
    package func clearTarget() {
        guard targetEnd != nil else { return }
        targetEnd = nil
        targetProblem = nil
        onChange()
    }

    /// After a font change, a pause or a resume: the speed that still ends on time.
    /// While paused the clock runs, so the fit is made when play goes on.
    package func refitTarget(at t: Double) {
        guard let end = targetEnd, engine.state(at: t) == .playing else { return }
        let left = end - max(t, engine.countdownEnd ?? t)
        do {
            let speed = try fittedSpeed(seconds: left, at: t)
            targetProblem = nil
            setSpeedKeepingTarget(speed, at: t)
        } catch {
            targetProblem = error.description
            KioskLog.warning("finish target: \(error)")
            onChange()
        }
    }

    /// Seconds left to the target end, nil without one.
    package func targetLeft(at t: Double) -> Double? { targetEnd.map { max(0, $0 - t) } }

    private func fittedSpeed(seconds: Double, at t: Double) throws(PaceError) -> Int {
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

    private func setSpeedKeepingTarget(_ speed: Int, at t: Double) {
        let keep = (targetEnd, targetProblem)
        setSpeed(speed, at: t)
        (targetEnd, targetProblem) = keep
    }
}

/// "4:30", "1:02:00" or "90" (seconds) as seconds; nil when it is none of these.
package func parseDuration(_ text: String) -> Double? {
    let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count) else { return nil }
    var total = 0.0
    for (index, part) in parts.enumerated() {
        guard let value = Double(part), value >= 0, value.isFinite, index == 0 || value < 60 else { return nil }
        total = total * 60 + value
    }
    return total
}

/// Why a pace was refused.
package enum PaceError: Error, Equatable, CustomStringConvertible {
    case noLayout
    case badWordsPerMinute(Int)
    case badDuration
    case outOfRange(what: String, speed: Double)

    package var description: String {
        switch self {
        case .noLayout: "no script is laid out yet"
        case let .badWordsPerMinute(wpm): "words per minute must be above 0, found \(wpm)"
        case .badDuration: "the duration must be a time ahead, such as 4:30 or 90 (seconds)"
        case let .outOfRange(what, speed):
            "\(what) needs \(Int(speed.rounded())) px/s; the prompter scrolls at "
                + "\(ScrollSpeed.range.lowerBound)-\(ScrollSpeed.range.upperBound) px/s"
        }
    }
}
