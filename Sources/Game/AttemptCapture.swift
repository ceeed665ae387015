import Foundation

/// The running attempt, from Send until review or interruption: its capture phases, its
/// handshakes with the speaker, the recorder and the participant's display, and the
/// record it fills in. Never saved: capture is never restored.
struct AttemptCapture: Equatable, Sendable {
    /// What one event asks of the session.
    enum Step: Equatable, Sendable {
        /// Still capturing: carry these out.
        case running([GameEffect])
        /// The attempt must be voided for this reason.
        case interrupt(InterruptionReason)
        /// Captured: the record awaits the host's review once these are carried out.
        case captured(AttemptRecord, [GameEffect])
    }

    let generation: UInt64
    let snapshot: ChallengeSnapshot
    /// What Retry puts back into the picker (a drawn rule is drawn again).
    let selection: ChallengeSelection
    /// The camera the attempt records from; another one appearing is an interruption.
    let cameraID: String?
    /// The id the cue gets when requested: cue ids are unique in the game.
    let cueID: UInt64
    /// Goes to the session's history when the attempt ends.
    private(set) var record: AttemptRecord
    /// One of the capturing phases.
    private(set) var phase = GamePhase.preparing
    private(set) var speechDuration: Double?
    private var timeline: RecordingTimeline?
    private(set) var cue: CueHandshake?
    private(set) var cueHideAt: Double?
    private(set) var responseEnd: Double?
    /// The recorder was asked to finalize; waiting for `recordingFinalized`.
    private(set) var finalizing = false

    init(id: Int, generation: UInt64, snapshot: ChallengeSnapshot, selection: ChallengeSelection,
         cameraID: String?, cueID: UInt64, sentAt: Double) {
        self.generation = generation
        self.snapshot = snapshot
        self.selection = selection
        self.cameraID = cameraID
        self.cueID = cueID
        record = AttemptRecord(id: id, generation: generation, snapshot: snapshot,
                               media: snapshot.recording ? .recording : .none)
        record.timing.sentAt = sentAt
    }

    var recording: Bool { snapshot.recording }

    /// Speech is synthesized first, so its duration is known before the recording starts.
    var firstEffect: GameEffect {
        .synthesizeSpeech(generation: generation, text: snapshot.instruction,
                          wordsPerMinute: snapshot.speech.wordsPerMinute)
    }

    /// Whether this attempt is filming `player`.
    func records(_ player: String) -> Bool {
        recording && snapshot.player == player
    }

    /// The next moment a `.tick` is needed: see `GameSession.nextDeadline`.
    var nextDeadline: Double? {
        switch phase {
        case .leadIn: return leadInDeadline
        case .cue: return cue?.deadline
        case .response: return [cueHideAt, responseEnd].compactMap { $0 }.min()
        case .tail: return finalizing ? nil : tailEnd.map { $0 + RecordingTimeline.stallGrace }
        default: return nil
        }
    }

    /// When the lead-in must be complete before the attempt counts as stalled.
    private var leadInDeadline: Double? {
        timeline.map { $0.origin + RecordingTimeline.leadIn + RecordingTimeline.stallGrace }
    }

    /// The moment on the timeline the tail must reach.
    private var tailEnd: Double? {
        responseEnd.map { $0 + RecordingTimeline.tail }
    }

    // MARK: Events

    /// A result of this attempt's generation, or a tick. A result the phase does not
    /// expect changes nothing.
    mutating func receive(_ event: GameEvent, at now: Double) -> Step {
        switch event {
        case .speechPrepared(_, let duration): return speechPrepared(duration, at: now)
        case .mediaAccepted(_, let stream, let time): return .running(mediaAccepted(stream, upTo: time))
        case .speechFinished(_, let start, let end): return .running(speechFinished(start: start, end: end, at: now))
        case .cuePresented(_, let cue, let surface, let flip, let frame):
            return cuePresented(cue, on: surface, flipTime: flip, frame: frame, at: now)
        case .recordingFinalized(_, let file): return recordingFinalized(file)
        case .recordingFailed(_, let reason): return .interrupt(.recordingFailed(reason))
        case .tick: return tick(at: now)
        case .rigChanged, .interrupt: return .running([])
        }
    }

    private mutating func speechPrepared(_ duration: Double, at now: Double) -> Step {
        guard phase == .preparing else { return .running([]) }
        speechDuration = duration
        guard recording else {
            phase = .speech
            return .running([.playSpeech(generation: generation)])
        }
        let length = RecordingTimeline.length(speech: duration, response: snapshot.responseDuration,
                                              visual: snapshot.cue != nil)
        if length > RecordingTimeline.bound { return .interrupt(.tooLongForRecording(seconds: length)) }
        timeline = RecordingTimeline(origin: now, streams: snapshot.pictureOnly == true ? [.video] : [.audio, .video])
        record.timing.recordingOrigin = now
        phase = .leadIn
        return .running([.startRecording(generation: generation, attempt: record.id)])
    }

    private mutating func mediaAccepted(_ stream: MediaStream, upTo time: Double) -> [GameEffect] {
        guard var timeline else { return [] }
        timeline.accept(stream, upTo: time)
        self.timeline = timeline
        switch phase {
        case .leadIn where timeline.leadInComplete:
            phase = .speech
            return [.playSpeech(generation: generation)]
        case .tail:
            return finishTailIfCovered()
        default:
            return []
        }
    }

    private mutating func speechFinished(start: Double, end: Double, at now: Double) -> [GameEffect] {
        guard phase == .speech else { return [] }
        record.timing.speechStart = start
        record.timing.speechEnd = end
        guard let spec = snapshot.cue else {
            openResponse(at: end)
            return []
        }
        cue = CueHandshake(id: cueID, requestedAt: now)
        record.timing.cueRequestedAt = now
        phase = .cue
        return [.showCue(generation: generation, cue: cueID, letter: spec.letter, duration: spec.duration)]
    }

    private mutating func cuePresented(_ id: UInt64, on surface: PresentationSurface, flipTime: Double,
                                       frame: UInt64, at now: Double) -> Step {
        guard phase == .cue, var handshake = cue, let spec = snapshot.cue else { return .running([]) }
        switch handshake.presented(id: id, on: surface, flipTime: flipTime, frame: frame) {
        case .ignored:
            return .running([])
        case .late:
            return .interrupt(.cueNotShown)
        case .acknowledged(let onset):
            cue = handshake
            cueHideAt = onset + spec.duration
            record.timing.cueOnset = onset
            record.timing.cueFrame = frame
            record.timing.cueOnTimeline = timeline.map { onset - $0.origin }
            openResponse(at: onset)
            // The flip may be reported late; a window already over closes at once.
            return tick(at: now)
        }
    }

    /// The response window opens when the instruction ends, or with the cue's onset.
    private mutating func openResponse(at start: Double) {
        responseEnd = start + snapshot.responseDuration
        record.timing.responseStart = start
        record.timing.responseEnd = responseEnd
        phase = .response
    }

    private mutating func recordingFinalized(_ file: String) -> Step {
        guard phase == .tail, finalizing else { return .running([]) }
        record.media = .saved(file: file)
        return .captured(record, [])
    }

    private mutating func tick(at now: Double) -> Step {
        switch phase {
        case .leadIn:
            if let deadline = leadInDeadline, now >= deadline, let timeline {
                return .interrupt(.recordingStalled(timeline.laggingStream))
            }
        case .cue:
            if cue?.hasTimedOut(at: now) == true { return .interrupt(.cueNotShown) }
        case .response:
            return responseTick(at: now)
        case .tail:
            if let end = tailEnd, !finalizing, now >= end + RecordingTimeline.stallGrace, let timeline {
                return .interrupt(.recordingStalled(timeline.laggingStream))
            }
        default:
            break
        }
        return .running([])
    }

    /// Hides the cue after its duration; at the window's end a recording goes on into
    /// its tail, an unrecorded attempt is captured.
    private mutating func responseTick(at now: Double) -> Step {
        var effects: [GameEffect] = []
        if let hide = cueHideAt, now >= hide, let cue {
            cueHideAt = nil
            effects.append(.hideCue(generation: generation, cue: cue.id))
        }
        guard let end = responseEnd, now >= end else { return .running(effects) }
        guard recording else { return .captured(record, effects) }
        phase = .tail
        return .running(effects + finishTailIfCovered())
    }

    /// Stops the recording once both streams have covered the tail.
    private mutating func finishTailIfCovered() -> [GameEffect] {
        guard !finalizing, let end = tailEnd, timeline?.covers(end) == true else { return [] }
        finalizing = true
        return [.stopRecording(generation: generation)]
    }

    // MARK: Ending early

    /// Why a device change stops this attempt, if it does: the camera lost for a
    /// recorded attempt (or another camera in its place), or the participant's display
    /// lost for any attempt, since the participant's Stop lives there.
    func interruption(from before: RigConditions, to after: RigConditions) -> InterruptionReason? {
        if recording {
            if after.cameraID != nil && after.cameraID != cameraID { return .cameraChanged }
            if after.cameraID == nil || !after.cameraStreaming { return .cameraLost }
        }
        if before.outerAvailable && !after.outerAvailable { return .outerDisplayLost }
        if before.outerEnabled && !after.outerEnabled { return .outerDisplayOff }
        return nil
    }

    /// The record voided by `reason` (no penalty, no challenge used), and what stops
    /// everything of this generation and discards its media.
    func voided(by reason: InterruptionReason, at wallTime: Double) -> (record: AttemptRecord, effects: [GameEffect]) {
        var record = self.record
        record.interruption = reason
        record.verdicts.append(VerdictChange(verdict: .void, at: wallTime, by: .game))
        var effects: [GameEffect] = [.cancel(generation: generation)]
        if recording {
            record.media = .discarded
            effects.append(.discardMedia(attempt: record.id))
        }
        return (record, effects)
    }
}
