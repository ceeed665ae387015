/// A follower rig's hand on its engine: keeps the text where the lead rig's reading line
/// puts it in this rig's layout (`target`, the lead's transport ramping towards
/// `leadTargetRate` px/s here), through the engine's own ramps and glides, so following
/// never shows motion the engine could not.
///
/// - Moving: the rate is the one the lead ramps to plus `gain` times the gap, so the
///   follower's ramp mirrors the lead's and a gap closes in about `1 / gain` seconds;
///   the follower's ramp ends when the lead's does, so a speed change heard of late lags
///   by half its delay's worth, not all of it; rate changes under `rateDeadband` are not
///   sent.
/// - Stopping: the text eases out as the lead's does (`pause`), then glides the last
///   bit to its place.
/// - Counting down: the same countdown here, ending when the lead's does (its digits
///   shown as for this rig's own), then the lead's rate.
/// - A gap over `jumpLines` lines is the lead's own jump (a marker, the start, another
///   place): the same glide as the lead's. After the link was lost (`catchingUp`) the
///   glide is stretched so no frame moves more than a line, even on a 50 Hz display,
///   and it lands within a second for any gap up to about 30 lines.
/// Pure and value-typed, like the engine: every call takes the time.
public struct LeadPursuit: Sendable, Equatable {
    public static let gain = 2.5
    public static let rateDeadband = 0.02
    public static let jumpLines = 1.5
    /// Closer than this (px) at rest is there.
    public static let settle = 0.25
    /// A countdown here ending this close to the lead's is the same one.
    static let countdownTolerance = 0.02
    /// The slowest display a catch-up glide is sized for, and its fastest speed over its
    /// mean: the ease peaks at 1.5×, and the text's own rate rides on it.
    static let slowestRefresh = 50.0
    static let easePeak = 1.8
    /// Ahead of the lead while it moves, the text slows down but never stops.
    static let slowestShare = 0.25

    public enum Step: Equatable, Sendable {
        case none
        case pursue(rate: Double)
        case countdown(until: Double)
        case easeOut
        case glide(distance: Double, duration: Double)
    }

    /// Set when following (re)starts: the lead back after the link was lost, its script
    /// just opened, the operator handing back. The next gap is a catch-up, not a jump of
    /// the lead's.
    public var catchingUp = false

    public init() {}

    /// Steers `engine` at t towards `target` (this layout's offset of the lead's place at
    /// t), the lead's transport heading for `leadRate` px/s here, its ramp there ending
    /// `leadRampLeft` seconds from t, after a countdown's `leadStartsIn` seconds.
    @discardableResult
    public mutating func steer(_ engine: inout PrompterEngine, target: Double, leadTargetRate leadRate: Double,
                               leadRampLeft: Double = 0, leadStartsIn: Double = 0, lineHeight: Double,
                               at t: Double) -> Step {
        guard target.isFinite, leadRate.isFinite else { return .none }
        let height = max(lineHeight, 1)
        let goal = min(max(target, 0), engine.maxOffset)
        let error = goal - engine.positionIgnoringGlide(at: t)
        // Counting down, the lead is at rest until its countdown ends.
        let movingRate = leadStartsIn > 0 ? 0 : leadRate
        // Catching up (the lead back, a script just opened, handed back), any gap over a
        // pixel is glided at once rather than chased through the ramps.
        if abs(error) > Self.jumpLines * height || (catchingUp && abs(error) > 1) {
            // A rate the engine still has to ramp up to leaves it behind by half the ramp's
            // worth: the glide lands that much ahead, where the ramp's end meets the lead.
            let rampLag = max(0, movingRate - engine.transportRate(at: t)) * PrompterEngine.rampDuration / 2
            let landing = min(goal + rampLag, engine.maxOffset)
            let distance = abs(landing - engine.offset(at: t))
            // Up to a second: a gap longer than about 30 lines is the lead's own jump made
            // while this rig was away, and glides as any jump does.
            let duration = catchingUp
                ? min(max(PrompterEngine.glideDuration, Self.easePeak * distance / height / Self.slowestRefresh), 1)
                : PrompterEngine.glideDuration
            catchingUp = false
            engine.jump(to: landing, at: t, glide: duration)
            if movingRate > 0 { engine.pursue(rate: movingRate, at: t) }
            return .glide(distance: error, duration: duration)
        }
        catchingUp = false
        // A glide under way lands where it was sent: steering under it would restart its
        // ease with what is left, and its last frames would move faster than its first.
        if engine.isGliding(at: t) { return .none }
        if leadStartsIn > 0, leadRate > 0 {
            let end = t + leadStartsIn
            // Each anchor names the same end (it is the lead's wall-clock time): one
            // countdown, set again only if the lead's moved.
            let counting = engine.isCountingDown(at: t)
                && abs((engine.countdownEnd ?? -.infinity) - end) < Self.countdownTolerance
            if counting, abs(error) <= Self.settle { return .none }
            if !counting { engine.countDown(until: end, rate: leadRate, at: t) }
            // The run starts at the lead's place (a jump in a countdown moves where it starts).
            if abs(error) > Self.settle { engine.jump(to: goal, at: t) }
            return .countdown(until: end)
        }
        if leadRate > 0 {
            let wanted = max(leadRate * Self.slowestShare, leadRate + Self.gain * error)
            if engine.state(at: t) == .playing, abs(engine.targetRate - wanted) < Self.rateDeadband { return .none }
            engine.pursue(rate: wanted, at: t, rampEndingIn: leadRampLeft)
            return .pursue(rate: wanted)
        }
        if engine.state(at: t) == .playing {
            engine.pause(at: t)
            return .easeOut
        }
        if abs(error) > Self.settle, !engine.isMoving(at: t) {
            engine.jump(to: goal, at: t)
            return .glide(distance: error, duration: PrompterEngine.glideDuration)
        }
        return .none
    }
}
