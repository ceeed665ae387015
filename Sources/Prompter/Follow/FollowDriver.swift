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
///   (a tap, the pause key), follow does nothing until it plays again. A tap or the pause
///   key during follow's own hold makes it the operator's pause (`operatorPaused`).
/// - Takes the operator's hand: while it steers, the speed keys move the reading line
///   ahead of or behind the voice (`nudgeLead`, half a line a press, up to 3 lines
///   either way); a jump re-anchors it at the jump's place (`moved`), and a resume at
///   the reading line (`resumed`), keeping the talent's pace.
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
    /// The speed keys' step of the lead while follow steers, and its bound, in lines.
    public static let leadStep = 0.5
    public static let maxLead = 3.0

    /// Where the operator last moved the position (a jump, a resume): the word and the
    /// time. The listener re-anchors its aligner there and forgets words heard before.
    public struct Anchor: Sendable, Equatable {
        public let word: Int
        public let time: Double

        public init(word: Int, time: Double) {
            self.word = word
            self.time = time
        }
    }

    /// Engine offset that puts each script word on the reading line.
    public let wordOffsets: [Double]
    public let lineHeight: Double
    /// The speed to hand back to when follow loses the talent: the operator's latest.
    public var fixedSpeed: Int
    public private(set) var mode: Mode = .waiting
    public private(set) var word: Int?
    public private(set) var confidence = 0.0
    /// Lines the reading line runs ahead of the voice (negative: behind); the speed keys' doing.
    public private(set) var lead: Double
    public private(set) var anchor: Anchor?

    private var held = false
    private var lastProgress: Double?
    private var lowSince: Double?
    /// (time, target offset) of recent progress, for the pace.
    private var progress: [(time: Double, offset: Double)] = []

    public init(wordOffsets: [Double], lineHeight: Double, fixedSpeed: Int, lead: Double = 0) {
        self.wordOffsets = wordOffsets
        self.lineHeight = max(1, lineHeight)
        self.fixedSpeed = fixedSpeed
        self.lead = min(max(lead, -Self.maxLead), Self.maxLead)
    }

    public static func == (a: FollowDriver, b: FollowDriver) -> Bool {
        a.wordOffsets == b.wordOffsets && a.mode == b.mode && a.word == b.word && a.confidence == b.confidence
            && a.held == b.held && a.lastProgress == b.lastProgress && a.lead == b.lead && a.anchor == b.anchor
            && a.fixedSpeed == b.fixedSpeed
    }

    /// Follow has the engine: the speed keys mean the lead, not the speed.
    public var isSteering: Bool { mode == .tracking || mode == .holding }
    /// The engine is paused by follow's own hold (the talent stopped speaking).
    public var isHolding: Bool { held }

    // MARK: the operator's hand

    /// A speed key while steering: `steps` (+1 faster, -1 slower) of `leadStep` lines.
    public mutating func nudgeLead(by steps: Int) {
        lead = min(max(lead + Double(steps) * Self.leadStep, -Self.maxLead), Self.maxLead)
    }

    /// The operator moved the text to `offset` (a marker, the start): follow takes the
    /// word there as the talent's place, keeps their pace and a hold it was in.
    public mutating func moved(toOffset offset: Double, at t: Double) {
        let newWord = wordOffsets.lastIndex { $0 <= offset + 0.5 } ?? 0
        anchor = Anchor(word: newWord, time: t)
        // Before the talent was first placed there is nothing to move: it waits as it was.
        guard let old = word, wordOffsets.indices.contains(newWord), wordOffsets.indices.contains(old) else { return }
        // The pace so far, carried to the new place.
        let shift = wordOffsets[newWord] - wordOffsets[old]
        progress = progress.map { ($0.time, $0.offset + shift) }
        word = newWord
        lowSince = nil
        // A hold goes on until the talent is heard at the new place.
        if !held { lastProgress = t }
    }

    /// The operator played a paused engine (a tap, the play key): follow starts again
    /// from the reading line, at the talent's last pace until they are heard.
    public mutating func resumed(atOffset offset: Double, at t: Double) {
        held = false
        moved(toOffset: offset - lead * lineHeight, at: t)
    }

    /// A tap or the pause key during follow's own hold: the pause is the operator's now,
    /// so follow leaves it until they play again.
    public mutating func operatorPaused() { held = false }

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
        return wordOffsets[word] + min(lineHeight, pace * max(0, t - lastProgress)) + lead * lineHeight
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
        // A jump's glide under way counts as arrived: the gap is to where the text is going.
        let gap = target - engine.positionIgnoringGlide(at: t)
        if abs(gap) > Self.jumpLines * lineHeight, confidence >= Self.jumpConfidence {
            engine.seek(to: target, at: t)
            return
        }
        let wanted = ScrollSpeed.clamped(Int((pace + Self.gain * gap).rounded()))
        if abs(wanted - engine.speed) >= Self.speedDeadband { engine.setSpeed(wanted, at: t) }
    }
}
