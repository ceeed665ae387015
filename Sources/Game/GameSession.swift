import Foundation

/// The Simon Says game: one state machine, driven by the host's commands and the rig's
/// events, each with its CLOCK_MONOTONIC time, returning the effects it wants done.
///
/// The Stage owns one `GameSession` on the event-loop thread and:
/// - calls `perform(_:at:)` for dashboard commands (refused ones throw and change nothing),
/// - calls `receive(_:at:)` for results and device changes (stale ones are ignored),
/// - calls `receive(.tick, at:)` when `nextDeadline` passes, after handing over the page
///   flips and samples already read in that loop iteration (a tick at the cue's 0.5 s
///   limit voids a cue whose in-time flip has not been reported yet),
/// - carries out the returned `GameEffect`s in order, and writes `saved` to the session
///   file (`GameSessionFile`) on `.save`.
///
/// The running attempt is an `AttemptCapture`; the ended ones are an `AttemptHistory`.
/// Wall-clock time (`wallClock`) only stamps records (verdict history, consent); every
/// rule runs on the monotonic times passed in.
public struct GameSession: Sendable {
    public private(set) var setup: GameSetup
    public private(set) var catalog: ActionCatalog
    /// 0-based turn of the game; its player is `roster[turn % roster.count]`.
    public private(set) var turn = 0
    public private(set) var selection: ChallengeSelection?
    public private(set) var consent = ConsentBook()
    public private(set) var rig = RigConditions.unknown
    public private(set) var ended = false
    private(set) var capture: AttemptCapture?
    private(set) var random: GameRandom
    private var history = AttemptHistory()
    /// The phase when no attempt runs: ready, review, complete or interrupted.
    private var restingPhase = GamePhase.ready
    /// What Retry offers after an interruption.
    private var retrySelection: ChallengeSelection?
    private var lastGeneration: UInt64 = 0
    /// The id of the last cue an ended attempt requested; a running one holds the next.
    private var lastCueID: UInt64 = 0
    private let wallClock: @Sendable () -> Double

    /// A new game. Refuses a setup with problems (every one of them).
    public init(setup: GameSetup, catalog: ActionCatalog, random: GameRandom,
                wallClock: @escaping @Sendable () -> Double) throws(GameRefusal) {
        let problems = setup.problems(catalog: catalog)
        guard problems.isEmpty else { throw .invalidSettings(problems) }
        self.setup = setup.normalized
        self.catalog = catalog
        self.random = random
        self.wallClock = wallClock
    }

    // MARK: What the dashboard asks

    public var phase: GamePhase { capture?.phase ?? restingPhase }

    /// Every attempt sent, the running one last.
    public var attempts: [AttemptRecord] {
        guard let capture else { return history.records }
        return history.records + [capture.record]
    }

    public var roster: [String] { setup.players }
    public var settings: GameSettings { setup.settings }

    /// Whose turn it is.
    public var currentPlayer: String { roster[turn % roster.count] }

    /// Scored challenges (pass or fail) the current turn has used.
    public var challengesPlayedThisTurn: Int { history.scoredChallenges(inTurn: turn) }

    public var turnIsOver: Bool { challengesPlayedThisTurn >= settings.challengesPerTurn }

    /// The attempt the host must judge, if any.
    public var pendingReview: AttemptRecord? {
        phase == .review ? attempts.last : nil
    }

    /// The running attempt's generation; results carrying another one are stale.
    public var activeGeneration: UInt64? { capture?.generation }

    /// The running attempt's snapshot.
    public var activeSnapshot: ChallengeSnapshot? { capture?.snapshot }

    /// The running attempt's speech length, once synthesized (its DAC end is its first
    /// sample's time plus this).
    public var activeSpeechDuration: Double? { capture?.speechDuration }

    public var allowedActions: Set<HostAction> { HostAction.allowed(in: phase, ended: ended) }

    public var scoreboard: Scoreboard { Scoreboard(roster: roster, attempts: attempts) }

    /// The attempts whose video is still on the rig, with the file of each.
    public var savedMedia: [(attempt: Int, file: String)] { history.savedMedia }

    /// The next moment the game needs a `.tick`: the cue's acknowledgement limit, its
    /// end, the response window's end, or a stall limit. Nil when only events can move it.
    public var nextDeadline: Double? { capture?.nextDeadline }

    /// Whether the current player's next attempt is recorded: recording on, and the
    /// player did not choose to play without it.
    public var recordsCurrentPlayer: Bool {
        settings.recording && !consent.playsWithoutRecording(currentPlayer)
    }

    // MARK: Host commands

    /// Carries out a host command, or throws why not (and changes nothing).
    public mutating func perform(_ command: HostCommand, at now: Double) throws(GameRefusal) -> [GameEffect] {
        guard allowedActions.contains(command.action) else {
            if ended { throw .gameEnded }
            throw .notAllowed(command.action, in: phase)
        }
        switch command {
        case .select(let selection): return try select(selection)
        case .changeSettings(let settings): return try change(settings)
        case .consent(let player, let agreed): return try recordConsent(player, agreed: agreed)
        case .playWithoutRecording(let player): return try recordWithoutRecording(player)
        case .send: return try send(at: now)
        case .stop: return interrupt(.hostStop)
        case .judge(let verdict):
            guard history.judgeLatest(verdict, at: wallClock()) else { return [] }
            restingPhase = .complete
            return [.save]
        case .correct(let id, let verdict):
            // The turn order does not move back: a correction in a finished turn changes
            // its score, not who plays.
            try history.correct(id, verdict, at: wallClock(), latestAwaitsReview: phase == .review)
            return [.save]
        case .deleteMedia(let id): return [try history.deleteMedia(id), .save]
        case .deleteGameMedia: return history.deleteAllMedia() + [.save]
        case .retry: return retry()
        case .next: return next()
        case .endGame:
            ended = true
            return [.save]
        }
    }

    private mutating func select(_ selection: ChallengeSelection?) throws(GameRefusal) -> [GameEffect] {
        guard let selection else {
            self.selection = nil
            return [.save]
        }
        guard let card = catalog.card(id: selection.cardID) else { throw .unknownCard(selection.cardID) }
        guard settings.offers(card) else { throw .cardNotInPlay(card.id) }
        _ = try card.resolve(selection.parameters)
        self.selection = selection
        return [.save]
    }

    private mutating func change(_ settings: GameSettings) throws(GameRefusal) -> [GameEffect] {
        let problems = settings.problems(catalog: catalog)
        guard problems.isEmpty else { throw .invalidSettings(problems) }
        setup.settings = settings
        return [.save]
    }

    private mutating func recordConsent(_ player: String, agreed: Bool) throws(GameRefusal) -> [GameEffect] {
        guard roster.contains(player) else { throw .unknownPlayer(player) }
        consent.record(player, agreed: agreed, at: wallClock())
        if !agreed, capture?.records(player) == true { return interrupt(.consentWithdrawn) }
        return []
    }

    /// A running recorded attempt of this player stops: it would keep a file they
    /// did not agree to.
    private mutating func recordWithoutRecording(_ player: String) throws(GameRefusal) -> [GameEffect] {
        guard roster.contains(player) else { throw .unknownPlayer(player) }
        consent.recordWithoutRecording(player, at: wallClock())
        if capture?.records(player) == true { return interrupt(.consentWithdrawn) }
        return []
    }

    /// Every unmet condition for Send, in the order the dashboard lists them. Empty
    /// means Send will start an attempt.
    public var sendBlockers: [SendBlocker] {
        if ended { return [.gameEnded] }
        var blockers: [SendBlocker] = []
        switch phase {
        case .ready: break
        case .review: blockers.append(.unresolvedReview)
        default: blockers.append(.phase(phase))
        }
        var card: ActionCard?
        if let selection {
            card = catalog.card(id: selection.cardID).flatMap { settings.offers($0) ? $0 : nil }
            if card == nil { blockers.append(.actionNotAvailable(selection.cardID)) }
        } else {
            blockers.append(.noActionSelected)
        }
        if recordsCurrentPlayer && !consent.hasAgreed(currentPlayer) {
            blockers.append(.noConsent(player: currentPlayer))
        }
        blockers += rig.sendBlockers(recording: recordsCurrentPlayer, visual: settings.mode == .visual)
        if recordsCurrentPlayer, let card, let selection {
            let length = settings.longestRecording(of: card, with: selection.parameters)
            if length > RecordingTimeline.bound { blockers.append(.recordingTooLong(seconds: length)) }
        }
        return blockers
    }

    /// Freezes the snapshot and starts the attempt.
    private mutating func send(at now: Double) throws(GameRefusal) -> [GameEffect] {
        let blockers = sendBlockers
        guard blockers.isEmpty, let selection, let card = catalog.card(id: selection.cardID) else {
            throw .notReady(blockers)
        }
        let parameters = try card.resolve(selection.parameters)
        let rule: ChallengeRule
        let source: RuleSource
        switch selection.rule {
        case .host(let chosen):
            rule = chosen
            source = .host
        case .draw:
            rule = random.drawRule()
            source = .drawn
        }
        var played = settings
        played.recording = recordsCurrentPlayer
        let snapshot = ChallengeSnapshot.freeze(
            card: card, parameters: parameters, rule: rule, source: source, player: currentPlayer,
            host: setup.host, settings: played, turn: turn, challenge: challengesPlayedThisTurn + 1)
        lastGeneration += 1
        let capture = AttemptCapture(id: history.nextID, generation: lastGeneration, snapshot: snapshot,
                                     selection: selection, cameraID: snapshot.recording ? rig.cameraID : nil,
                                     cueID: lastCueID + 1, sentAt: now)
        self.capture = capture
        retrySelection = nil
        return [capture.firstEffect, .save]
    }

    /// Back to ready with the interrupted challenge in the picker; nothing was scored.
    private mutating func retry() -> [GameEffect] {
        if let retrySelection { selection = retrySelection }
        retrySelection = nil
        restingPhase = .ready
        return [.save]
    }

    /// After a verdict: back to ready, and to the next player once this turn's scored
    /// challenges are used (a void used none).
    private mutating func next() -> [GameEffect] {
        if turnIsOver { turn += 1 }
        restingPhase = .ready
        return [.save]
    }

    // MARK: The rig's events

    /// Handles a result, device change, interruption or tick. Never refuses: a result
    /// for another generation, or one the phase does not expect, changes nothing.
    public mutating func receive(_ event: GameEvent, at now: Double) -> [GameEffect] {
        switch event {
        case .rigChanged(let conditions): return rigChanged(conditions)
        case .interrupt(let reason): return interrupt(reason)
        case .tick: break
        default: guard event.generation == capture?.generation else { return [] }
        }
        guard var capture else { return [] }
        let step = capture.receive(event, at: now)
        self.capture = capture
        switch step {
        case .running(let effects):
            return effects
        case .interrupt(let reason):
            return interrupt(reason)
        case .captured(let record, let effects):
            end(capture, as: record)
            restingPhase = .review
            return effects + [.save]
        }
    }

    /// Device changes. Only a loss during an attempt interrupts it (`AttemptCapture`
    /// says which).
    private mutating func rigChanged(_ conditions: RigConditions) -> [GameEffect] {
        let before = rig
        rig = conditions
        guard let reason = capture?.interruption(from: before, to: conditions) else { return [] }
        return interrupt(reason)
    }

    /// Cancels the running attempt: everything of its generation stops, its media is
    /// discarded, the game voids it (no penalty, no challenge used) and Retry is offered
    /// with the same challenge.
    private mutating func interrupt(_ reason: InterruptionReason) -> [GameEffect] {
        guard let capture else { return [] }
        let (record, effects) = capture.voided(by: reason, at: wallClock())
        end(capture, as: record)
        // The selection as the host made it: a drawn rule is drawn again.
        retrySelection = capture.selection
        restingPhase = .interrupted
        return effects + [.save]
    }

    private mutating func end(_ capture: AttemptCapture, as record: AttemptRecord) {
        history.append(record)
        if let cue = capture.cue { lastCueID = cue.id }
        self.capture = nil
    }

    // MARK: The session file

    /// The session as a restart must find it. An attempt running now is saved as
    /// interrupted by shutdown (void, media to discard): capture is never resumed.
    public var saved: SavedSession {
        var copy = self
        _ = copy.interrupt(.shutdown)
        return SavedSession(setup: copy.setup, phase: copy.phase, attempts: copy.attempts, turn: copy.turn,
                            selection: copy.selection, retrySelection: copy.retrySelection, ended: copy.ended,
                            random: copy.random, lastGeneration: copy.lastGeneration, lastCueID: copy.lastCueID)
    }

    /// A session from its file. Consent starts empty and the rig's devices unknown. The
    /// effects discard the media of an attempt the shutdown cut off (the recorder may
    /// have left part of a file).
    public static func restore(_ saved: SavedSession, catalog: ActionCatalog,
                               wallClock: @escaping @Sendable () -> Double) throws(GameRefusal)
        -> (session: GameSession, effects: [GameEffect]) {
        var session = try GameSession(setup: saved.setup, catalog: catalog, random: saved.random,
                                      wallClock: wallClock)
        session.history = AttemptHistory(saved.attempts)
        session.turn = saved.turn
        session.selection = saved.selection
        session.retrySelection = saved.retrySelection
        session.ended = saved.ended
        session.lastGeneration = saved.lastGeneration
        session.lastCueID = saved.lastCueID
        session.restingPhase = saved.phase.isCapturing ? .interrupted : saved.phase
        var effects: [GameEffect] = []
        if let last = saved.attempts.last, last.interruption == .shutdown, last.media == .discarded {
            effects.append(.discardMedia(attempt: last.id))
        }
        return (session, effects)
    }
}
