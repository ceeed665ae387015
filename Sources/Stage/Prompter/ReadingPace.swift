import Prompter

/// The speed a pace asks for, decided from the outer layout and the engine and refused
/// with the reason (`PaceError`): words per minute at the current font and column, and
/// the fit that ends the script on a "finish in" target (`FinishTarget`), first and
/// again after a font change, a pause or a resume. The controller sets the speed.
enum ReadingPace {
    /// The speed (px/s) that reads `wpm` words per minute in `layout`.
    static func speed(forWordsPerMinute wpm: Int, in layout: MarkerLayout?) throws(PaceError) -> Int {
        guard wpm > 0 else { throw .badWordsPerMinute(wpm) }
        guard let wanted = layout?.speed(forWordsPerMinute: wpm) else { throw .noLayout }
        let speed = Int(wanted.rounded())
        guard ScrollSpeed.range.contains(speed) else {
            throw .outOfRange(what: "\(wpm) words per minute", speed: wanted)
        }
        return speed
    }

    /// "Finish in `seconds`" asked at t: the target and the speed that meets it from where
    /// `engine` is (nil: no script is open).
    static func finish(in seconds: Double, engine: PrompterEngine?,
                       at t: Double) throws(PaceError) -> (speed: Int, target: FinishTarget) {
        guard seconds.isFinite, seconds > 0 else { throw .badDuration }
        guard let engine, engine.maxOffset.isFinite else { throw .noLayout }
        let speed = try FinishTarget.fittedSpeed(seconds: seconds, engine: engine, at: t)
        return (speed, FinishTarget(end: t + seconds))
    }

    /// `target` fitted again at t while playing: the speed that still ends on time and
    /// the target without a problem, or no speed and the target with why it cannot be met.
    /// While paused the clock runs, and a countdown under way is time not reading.
    static func refit(_ target: FinishTarget, engine: PrompterEngine, at t: Double) -> (speed: Int?, target: FinishTarget) {
        var target = target
        do {
            let left = target.end - max(t, engine.countdownEnd ?? t)
            let speed = try FinishTarget.fittedSpeed(seconds: left, engine: engine, at: t)
            target.problem = nil
            return (speed, target)
        } catch {
            target.problem = error.description
            KioskLog.warning("finish target: \(error)")
            return (nil, target)
        }
    }
}
