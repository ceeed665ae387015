/// Voice follow's hand on the engine: turns "the talent is at word N (heard at time t,
/// with this confidence)" into the engine's own speed changes, pauses and seeks, so the
/// motion keeps the engine's ramps and the engine stays the one source of the offset.
///
/// - Tracks: speed = the talent's recent pace plus a correction for the gap between
///   the reading line and where the talent is now (the heard word extrapolated at that
///   pace), so it closes in about `1 / gain` seconds without jitter; speed changes
///   smaller than `speedDeadband` are not sent.
/// - Holds: no progress for `holdAfter` seconds pauses the engine (it eases out); the
///   next progress resumes it.
/// - Lets go: confidence below `minimumConfidence` for `lostAfter` seconds hands back
///   to the operator's fixed speed until the words match again.
/// - Respects the operator: when the engine is paused or stopped by anyone but follow
///   (a tap, the pause key), follow does nothing until it plays again.
/// Pure and value-typed, like the engine: every call takes the time.
public struct FollowDriver: Sendable, Equatable {
    public enum Mode: String, Sendable, Equatable {
        case waiting, tracking, holding, lost
    }

    public static let holdAfter = 1.2
    public static let lostAfter = 4.0
    public static let minimumConfidence = 0.3
    public static let gain = 1.5
    public static let speedDeadband = 3
    /// A gap larger than this many lines is a jump (a skipped paragraph, a re-read), not a chase.
    public static let jumpLines = 4.0
    /// A jump needs most of the heard words to match; below it, the gap is chased at speed.
    public static let jumpConfidence = 0.6

    /// Engine offset that puts each script word on the reading line.
    public let wordOffsets: [Double]
    public let lineHeight: Double
    /// The speed to hand back to when follow loses the talent.
    public let fixedSpeed: Int
    public private(set) var mode: Mode = .waiting
    public private(set) var word: Int?
    public private(set) var confidence = 0.0

    private var held = false
    private var lastProgress: Double?
    private var lowSince: Double?
    /// (time, target offset) of recent progress, for the pace.
    private var progress: [(time: Double, offset: Double)] = []

    public init(wordOffsets: [Double], lineHeight: Double, fixedSpeed: Int) {
        self.wordOffsets = wordOffsets
        self.lineHeight = max(1, lineHeight)
        self.fixedSpeed = fixedSpeed
    }

    public static func == (a: FollowDriver, b: FollowDriver) -> Bool {
        a.wordOffsets == b.wordOffsets && a.mode == b.mode && a.word == b.word && a.confidence == b.confidence
            && a.held == b.held && a.lastProgress == b.lastProgress
    }

    /// The aligner placed the talent at `word` with `confidence`; `heardAt` is when that
    /// word was spoken (its end, on the engine's clock).
    public mutating func heard(word newWord: Int, confidence newConfidence: Double, heardAt: Double) {
        confidence = newConfidence
        if newConfidence < Self.minimumConfidence {
            if lowSince == nil { lowSince = heardAt }
            return
        }
        lowSince = nil
        guard wordOffsets.indices.contains(newWord) else { return }
        let target = wordOffsets[newWord]
        if word != newWord {
            word = newWord
            lastProgress = heardAt
            progress.append((heardAt, target))
            progress.removeAll { heardAt - $0.time > 3 }
        }
    }

    /// The talent's pace in px/s over the last seconds of progress (0 before two points).
    var pace: Double {
        guard let first = progress.first, let last = progress.last, last.time - first.time > 0.5 else { return 0 }
        return max(0, (last.offset - first.offset) / (last.time - first.time))
    }

    /// Where the talent is now: the last word, moved on at their pace since it was heard
    /// (at most a line: that covers the recogniser's delay, not a guess at a pause).
    func targetOffset(at t: Double) -> Double? {
        guard let word, let lastProgress else { return nil }
        return wordOffsets[word] + min(lineHeight, pace * max(0, t - lastProgress))
    }

    /// Steers `engine` at t (the event loop calls this a few times a second while follow is on).
    public mutating func drive(_ engine: inout PrompterEngine, at t: Double) {
        let state = engine.state(at: t)
        if state != .playing, !(state == .paused && held) {
            // Paused or stopped by the operator: hands off.
            held = false
            return
        }
        if let lowSince, t - lowSince > Self.lostAfter {
            if mode != .lost { engine.setSpeed(fixedSpeed, at: t) }
            mode = .lost
            if held { engine.resume(at: t); held = false }
            return
        }
        guard let lastProgress, let target = targetOffset(at: t) else { return }
        if t - lastProgress > Self.holdAfter {
            if !held, state == .playing { engine.pause(at: t); held = true }
            mode = .holding
            return
        }
        if held { engine.resume(at: t); held = false }
        mode = .tracking
        let gap = target - engine.offset(at: t)
        if abs(gap) > Self.jumpLines * lineHeight, confidence >= Self.jumpConfidence {
            engine.seek(to: target, at: t)
            return
        }
        let wanted = PrompterEngine.clampedSpeed(Int((pace + Self.gain * gap).rounded()))
        if abs(wanted - engine.speed) >= Self.speedDeadband { engine.setSpeed(wanted, at: t) }
    }
}
