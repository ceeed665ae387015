import Foundation
import Prompter

/// The console's and the status's timers at one moment: elapsed reading time, what is
/// left at this speed, the clock time the script ends, the countdown, the pace.
package struct PrompterTimers: Equatable {
    package var elapsed: Double
    /// Seconds to the end at the current speed (a countdown under way included).
    package var remaining: Double
    /// The wall-clock time the script ends at this speed if it plays on.
    package var endsAt: Date
    package var now: Date
    package var countdown: Int?
    package var wordsPerMinute: Int?
    /// Seconds left to a "finish in" target, nil without one.
    package var targetLeft: Double?
    package var targetProblem: String?

    package init(controller: PrompterController, elapsed: Double, at time: Double, wallClock: Date) {
        let engine = controller.engine
        self.elapsed = elapsed
        let distance = engine.maxOffset.isFinite ? max(0, engine.maxOffset - engine.positionIgnoringGlide(at: time)) : 0
        let waiting = engine.countdownEnd.map { max(0, $0 - time) } ?? 0
        remaining = (engine.isEnded(at: time) ? 0 : distance / Double(max(1, engine.speed))) + waiting
        now = wallClock
        endsAt = wallClock.addingTimeInterval(remaining)
        countdown = engine.countdownShown(at: time)
        wordsPerMinute = controller.markerLayout?.wordsPerMinute(atSpeed: engine.speed)
        targetLeft = controller.finishTarget?.left(at: time)
        targetProblem = controller.finishTarget?.problem
    }

    package var json: [String: JSONValue] {
        [
            "elapsed": .number((elapsed * 10).rounded() / 10),
            "remaining": .number((remaining * 10).rounded() / 10),
            "ends_at": .string(TimeText.iso8601(endsAt)),
            "countdown": countdown.map { .int($0) } ?? .null,
            "words_per_minute": wordsPerMinute.map { .int($0) } ?? .null,
            "finish_in": targetLeft.map { .number(($0 * 10).rounded() / 10) } ?? .null,
            "finish_problem": .optional(targetProblem),
        ]
    }
}
