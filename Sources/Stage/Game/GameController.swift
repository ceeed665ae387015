import Durable
import Foundation
import Game

/// The Simon Says game on the stage: owns the `GameSession` on the event-loop thread,
/// carries out its effects (speech through `speech`, recording through `recording`,
/// the cue in the participant view), calls its ticks at `nextDeadline` with the stage's
/// scheduler, and writes the session file on every `.save`. At start it restores the
/// file: roster, scores and a pending review come back, consent is asked again.
package final class GameController {
    package private(set) var session: GameSession? { didSet { sessionRevision += 1 } }
    /// Counts the writes of `session`: the console's frame input compares the session
    /// by it, since a state machine with a clock and a random source has no equality.
    package private(set) var sessionRevision = 0
    package let catalog: ActionCatalog?
    /// Why there is no catalog (the game cannot start without one).
    package let catalogProblem: String?
    /// The game holds the displays; the prompter does not run meanwhile.
    package private(set) var isOpen = false
    package var speech: any GameSpeechPort = SilentGameSpeech()
    package var recording: any GameRecordingPort = UnavailableGameRecording()
    /// Where the session is kept; nil keeps nothing.
    private let store: GameSessionStore?
    /// The last trouble with the session file, for the console and status.
    package var fileProblem: String? { store?.problem }
    /// The cue the participant view shows from its request until it is hidden.
    package private(set) var shownCue: (generation: UInt64, cue: UInt64)?
    /// What the rig was last told of the devices.
    package private(set) var conditions = RigConditions.unknown
    /// Names this game session in recordings' metadata (its start, UTC); kept beside
    /// the session file so a restored game keeps its name.
    package private(set) var sessionID = ""

    let now: () -> Double
    let schedule: (Double, @escaping () -> Void) -> Void
    private var loggedCue: UInt64?
    private var scheduledTick: Double?
    private var scheduledCountdown: Double?
    /// The last refusal of a console action, shown on the Game screen until the next action.
    package var notice: String?
    /// Something the displays show changed.
    package var onChange: () -> Void = {}

    package init(catalogURL: URL, stateDirectory: URL?, now: @escaping () -> Double,
                 schedule: @escaping (Double, @escaping () -> Void) -> Void) {
        self.now = now
        self.schedule = schedule
        store = stateDirectory.map { GameSessionStore(stateDirectory: $0) }
        do {
            catalog = try ActionCatalog.load(from: catalogURL)
            catalogProblem = nil
        } catch {
            catalog = nil
            catalogProblem = "game actions: \(error)"
        }
    }

    private static let wallClock: @Sendable () -> Double = { Date().timeIntervalSince1970 }

    /// Brings back the saved session, if any. A kill during an attempt left it running
    /// in the file's last save; restore voids it (shutdown) and discards its media.
    package func restore() {
        guard let store, let catalog, let restored = store.restore(catalog: catalog, wallClock: Self.wallClock)
        else { return }
        if let id = restored.id { sessionID = id } else { newSessionID() }
        session = restored.session
        apply(restored.effects)
        if restored.session.pendingReview != nil { KioskLog.info("game restored with a review pending") }
    }

    /// Names a new game by its start (UTC), kept beside the session.
    private func newSessionID() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        sessionID = "game-" + formatter.string(from: Date(timeIntervalSince1970: Self.wallClock()))
        store?.keep(id: sessionID)
    }

    // MARK: opening and leaving

    /// The game takes the displays. The caller stops the prompter.
    package func open() {
        guard !isOpen else { return }
        isOpen = true
        onChange()
    }

    /// Back to the prompter; an attempt running now is void (retry offered).
    package func leave() {
        guard isOpen else { return }
        receive(.interrupt(.leftGame))
        isOpen = false
        shownCue = nil
        onChange()
    }

    /// A new game with this roster and settings, replacing one not yet played.
    package func start(_ setup: GameSetup) throws(GameControlError) {
        guard let catalog else { throw .noCatalog(catalogProblem ?? "no action catalog") }
        if let session, session.activeGeneration != nil { throw .attemptRunning }
        do {
            session = try GameSession(setup: setup, catalog: catalog, random: GameRandom(seed: UInt64(now() * 1e6)),
                                      wallClock: Self.wallClock)
        } catch {
            throw .refused(error)
        }
        _ = session?.receive(.rigChanged(conditions), at: now())
        newSessionID()
        apply([.save])
    }

    // MARK: the session's inputs

    /// Every reason Send is refused now, the game's and the rig's own: each condition
    /// that would void an attempt at once is said here, before the host sends.
    package var readinessReasons: [String] {
        guard let session else { return [catalogProblem ?? "Set up the players first"] }
        var reasons = session.sendBlockers.map(\.description)
        if !isOpen { reasons.insert("The game is not open (the Game tab, or rig ctl game open)", at: 0) }
        if let reason = speech.unavailableReason {
            reasons.append("The instruction cannot be spoken: \(reason)")
        }
        if session.recordsCurrentPlayer {
            if let reason = recording.unavailableReason {
                reasons.append("Recording is on, but \(reason); turn recording off to play")
            } else if !session.settings.pictureOnly, let problem = recording.soundProblem {
                reasons.append("Recording is on, but \(problem); choose “Picture only” for Recording, or turn it off")
            }
        }
        return reasons
    }

    /// What the host should know before Send that does not stop it.
    package var readinessWarnings: [String] {
        guard session != nil else { return [] }
        var warnings: [String] = []
        if !conditions.participantTouch {
            warnings.append("The participant cannot stop an attempt: their display has no touchscreen ([touch] device)")
        }
        return warnings
    }

    /// A host command; refused ones change nothing and say why.
    package func perform(_ command: HostCommand) throws(GameControlError) {
        guard var session else { throw .noGame }
        if case .send = command, !readinessReasons.isEmpty { throw .notReady(readinessReasons) }
        let effects: [GameEffect]
        do {
            effects = try session.perform(command, at: now())
        } catch {
            throw .refused(error)
        }
        self.session = session
        apply(effects)
    }

    package func receive(_ event: GameEvent) {
        guard var session else { return }
        let before = session.phase
        let effects = session.receive(event, at: now())
        self.session = session
        if before != .interrupted, session.phase == .interrupted, let attempt = session.attempts.last {
            // The journal says why an attempt was void (the host's screen does too).
            KioskLog.info("attempt \(attempt.id) interrupted: \(attempt.interruption?.description ?? "")")
        }
        apply(effects)
    }

    /// The devices changed: the game hears it (losing one mid-attempt interrupts).
    package func rigChanged(_ new: RigConditions) {
        guard new != conditions else { return }
        conditions = new
        receive(.rigChanged(new))
        onChange()
    }

    /// The participant's tap: Stop during an attempt, nothing otherwise.
    package func participantTapped() {
        guard isOpen, session?.phase.isCapturing == true else { return }
        receive(.interrupt(.participantStop))
    }

    /// A cue is on request and no outer flip has shown it yet.
    package var cueAwaitingOnset: Bool {
        isOpen && shownCue != nil && session?.phase == .cue
    }

    /// The attempt whose speech has ended (or is about to) and whose letter comes next.
    var cueImminent: UInt64?
    /// A Visual S/Z challenge was sent: the stage prepares what its cue's frame draws.
    package var cueComing: () -> Void = {}
    /// The speech's end is known ahead (its DAC time): the cue's frame can be drawn for it.
    package var cueFrameAhead: (Double) -> Void = { _ in }

    /// The cue about to be requested and the overlay its frames will carry, for a frame
    /// drawn ahead (nil unless the speech of a Visual S/Z challenge has reported its end).
    package var upcomingCue: (generation: UInt64, cue: UInt64, overlay: CameraOverlay)? {
        guard isOpen, let cueImminent, let upcoming = session?.upcomingCue, upcoming.generation == cueImminent
        else { return nil }
        return (upcoming.generation, upcoming.cue, Self.overlay(upcoming.presentation))
    }

    /// From the speech's end report to the cue's first flip: the participant view keeps
    /// the camera picture it has (a fraction of a second) so the loop is free for the cue.
    package var holdsCameraForCue: Bool {
        if cueAwaitingOnset { return true }
        guard let cueImminent, isOpen, session?.activeGeneration == cueImminent else { return false }
        return session?.phase == .speech
    }

    /// An outer flip of a frame that showed cue `cue` (or none): the cue's handshake.
    package func outerFlipped(_ stamp: FlipStamp, cue: (generation: UInt64, cue: UInt64)?) {
        if let cue {
            if cue.cue != loggedCue {
                loggedCue = cue.cue
                KioskLog.info("cue \(cue.cue) on the outer display: flip \(stamp.sequence) at \(stamp.time)")
            }
            receive(.cuePresented(generation: cue.generation, cue: cue.cue, surface: .outer,
                                  flipTime: stamp.time, frame: stamp.sequence))
        }
    }

    /// The game as the console's Game screen reads it in a frame presented at `time`.
    package func consoleView(at time: Double) -> GameConsoleView {
        GameConsoleView(session: session, sessionRevision: sessionRevision, catalog: catalog,
                        readiness: readinessReasons, warnings: readinessWarnings, notice: notice, catalogProblem: catalogProblem,
                        participant: session?.participantPresentation(at: time))
    }

    /// The participant view's overlay for a frame presented at `time`: from the
    /// session's presentation only, which never carries the host's unsent pick.
    package func participantOverlay(at time: Double) -> CameraOverlay {
        guard let session else { return CameraOverlay(status: ParticipantPresentation.waiting) }
        return Self.overlay(session.participantPresentation(at: time))
    }

    static func overlay(_ view: ParticipantPresentation) -> CameraOverlay {
        CameraOverlay(status: view.status, countdown: view.countdown, recording: view.recording,
                      cue: view.cue.flatMap { $0.rawValue.first }, note: view.note, stopControl: view.stop,
                      hidesCamera: !view.camera)
    }

    // MARK: carrying out what the session asks, in order, then keeping its timers set

    func apply(_ effects: [GameEffect]) {
        for effect in effects { carryOut(effect) }
        if let session { recording.sessionChanged(session, id: sessionID) }
        keepTimersSet()
        onChange()
    }

    private func carryOut(_ effect: GameEffect) {
        switch effect {
        case let .synthesizeSpeech(generation, text, wordsPerMinute):
            // Seconds of synthesis ahead: the time to prepare the letter's drawing.
            if session?.activeSnapshot?.cue != nil { cueComing() }
            speech.prepare(text, wordsPerMinute: wordsPerMinute, generation: generation) { [weak self] result in
                switch result {
                case let .success(duration): self?.receive(.speechPrepared(generation: generation, duration: duration))
                case let .failure(failure): self?.speechFailed(generation, failure)
                }
            }
        case let .playSpeech(generation):
            var start: Double?
            speech.play(generation: generation) { [weak self] report in
                switch report {
                case let .started(time):
                    start = time
                    self?.cueAhead(generation, speechStart: time)
                case let .ended(time):
                    self?.speechEnded(generation, start: start ?? time, end: time)
                case let .failed(failure): self?.speechFailed(generation, failure)
                }
            }
        case let .showCue(generation, cue, _, _):
            // The request's time is in the `cue N timing` line after its flip: a journal
            // write here would sit between the request and the onset.
            shownCue = (generation, cue)
        case let .hideCue(generation, cue):
            if shownCue?.generation == generation && shownCue?.cue == cue { shownCue = nil }
        case let .cancel(generation):
            speech.cancel(generation: generation)
            recording.cancel(generation: generation)
            if shownCue?.generation == generation { shownCue = nil }
        case let .startRecording(generation, attempt): recording.start(generation: generation, attempt: attempt)
        case let .stopRecording(generation): recording.stop(generation: generation)
        case let .discardMedia(attempt): recording.discard(attempt: attempt)
        case let .deleteMedia(attempt, file): recording.delete(attempt: attempt, file: file)
        case .save: if let session { store?.save(session) }
        }
    }

    /// ALSA reports the end when the last sample is handed over, with its DAC time still
    /// ahead (about 150 ms in the virtual rig): the game hears of it at that time, so a
    /// Visual S/Z letter never shows while the instruction is still being heard.
    ///
    /// Until then a Visual S/Z letter is imminent: the participant view stops taking new
    /// camera pictures, so no camera conversion is under way when the cue is requested.
    private func speechEnded(_ generation: UInt64, start: Double, end: Double) {
        let finished = GameEvent.speechFinished(generation: generation, start: start, end: end)
        if session?.activeSnapshot?.cue != nil, cueImminent != generation {
            cueImminent = generation
            onChange()
            // The letter's frame is drawn now, while the last samples play, and flipped
            // at the request: the compose is not between the request and the onset.
            if end > now() { cueFrameAhead(end) }
        }
        guard end > now() else { return receive(finished) }
        schedule(end) { [weak self] in self?.receive(finished) }
    }

    /// How long before the speech's DAC end the cue's frame is drawn ahead (and the
    /// participant view keeps its camera picture): room for one participant-view frame
    /// on a loop that is late, as the virtual rig's is under load (110-280 ms a frame).
    static let cueFrameLead = 0.4

    /// The speech's DAC end is known from its first sample and its length, well before
    /// ALSA reports it (which a busy loop may hear only after that end): from
    /// `cueFrameLead` before it the letter is imminent and its frame is drawn ahead.
    private func cueAhead(_ generation: UInt64, speechStart: Double) {
        guard session?.activeSnapshot?.cue != nil, let duration = session?.activeSpeechDuration else { return }
        let end = speechStart + duration
        schedule(max(now(), end - Self.cueFrameLead)) { [weak self] in
            guard let self, isOpen, session?.activeGeneration == generation, session?.phase == .speech,
                  cueImminent != generation else { return }
            cueImminent = generation
            onChange()
            if end > now() { cueFrameAhead(end) }
        }
    }

    /// Speech that cannot be made or played voids the attempt, saying why; a failure
    /// of an attempt already abandoned changes nothing.
    private func speechFailed(_ generation: UInt64, _ failure: GameSpeechFailure) {
        guard session?.activeGeneration == generation else { return }
        KioskLog.warning("game speech \(generation): \(failure)")
        receive(.interrupt(.speechFailed(failure.description)))
    }

    /// A tick at the session's next deadline, and a redraw where the participant's
    /// countdown changes. The scheduler cannot cancel, so a timer that fires for a
    /// deadline no longer current does nothing.
    private func keepTimersSet() {
        if let deadline = session?.nextDeadline, deadline != scheduledTick {
            scheduledTick = deadline
            schedule(deadline) { [weak self] in
                guard let self, scheduledTick == deadline else { return }
                scheduledTick = nil
                receive(.tick)
            }
        }
        let time = now()
        if let change = nextCountdownChange(after: time), change != scheduledCountdown {
            scheduledCountdown = change
            schedule(change) { [weak self] in
                guard let self, scheduledCountdown == change else { return }
                scheduledCountdown = nil
                onChange()
                keepTimersSet()
            }
        }
    }

    /// When the whole seconds shown in the response window next go down.
    private func nextCountdownChange(after time: Double) -> Double? {
        guard let session, session.phase == .response, let end = session.attempts.last?.timing.responseEnd,
              end > time else { return nil }
        let shown = (end - time).rounded(.up)
        let change = end - (shown - 1)
        return change > time ? change : nil
    }
}
