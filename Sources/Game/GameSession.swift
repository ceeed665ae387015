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
/// Wall-clock time (`wallClock`) only stamps records (verdict history, consent); every
/// rule runs on the monotonic times passed in.
public struct GameSession: Sendable {
    public internal(set) var setup: GameSetup
    public private(set) var catalog: ActionCatalog
    public internal(set) var phase: GamePhase = .ready
    public internal(set) var attempts: [AttemptRecord] = []
    /// 0-based turn of the game; its player is `roster[turn % roster.count]`.
    public internal(set) var turn = 0
    public internal(set) var selection: ChallengeSelection?
    public internal(set) var consent = ConsentBook()
    public internal(set) var rig = RigConditions.unknown
    public internal(set) var ended = false
    var active: ActiveAttempt?
    /// What Retry offers after an interruption.
    var retrySelection: ChallengeSelection?
    var random: GameRandom
    var lastGeneration: UInt64 = 0
    var lastCueID: UInt64 = 0
    let wallClock: @Sendable () -> Double

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

    public var roster: [String] { setup.players }
    public var settings: GameSettings { setup.settings }

    /// Whose turn it is.
    public var currentPlayer: String { roster[turn % roster.count] }

    /// Scored challenges (pass or fail) the current turn has used.
    public var challengesPlayedThisTurn: Int {
        attempts.filter { $0.snapshot.turn == turn && $0.isScored }.count
    }

    public var turnIsOver: Bool { challengesPlayedThisTurn >= settings.challengesPerTurn }

    /// The attempt the host must judge, if any.
    public var pendingReview: AttemptRecord? {
        phase == .review ? attempts.last : nil
    }

    /// The running attempt's generation; results carrying another one are stale.
    public var activeGeneration: UInt64? { active?.generation }

    /// The running attempt's snapshot.
    public var activeSnapshot: ChallengeSnapshot? { active?.snapshot }

    public var allowedActions: Set<HostAction> { HostAction.allowed(in: phase, ended: ended) }

    public var scoreboard: Scoreboard { Scoreboard(roster: roster, attempts: attempts) }

    /// The next moment the game needs a `.tick`: the cue's acknowledgement limit, its
    /// end, the response window's end, or a stall limit. Nil when only events can move it.
    public var nextDeadline: Double? {
        guard let active else { return nil }
        switch phase {
        case .leadIn: return active.leadInDeadline
        case .cue: return active.cue?.deadline
        case .response: return [active.cueHideAt, active.responseEnd].compactMap { $0 }.min()
        case .tail: return active.finalizing ? nil : active.tailEnd.map { $0 + RecordingTimeline.stallGrace }
        default: return nil
        }
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
        case .consent(let player, let agreed): return try recordConsent(player, agreed: agreed, at: now)
        case .playWithoutRecording(let player): return try recordWithoutRecording(player, at: now)
        case .send: return try send(at: now)
        case .stop: return interrupt(.hostStop, at: now)
        case .judge(let verdict): return judge(verdict)
        case .correct(let id, let verdict): return try correct(id, verdict)
        case .deleteMedia(let id): return try deleteMedia(id)
        case .deleteGameMedia: return deleteGameMedia()
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

    private mutating func recordConsent(_ player: String, agreed: Bool, at now: Double) throws(GameRefusal) -> [GameEffect] {
        guard roster.contains(player) else { throw .unknownPlayer(player) }
        consent.record(player, agreed: agreed, at: wallClock())
        if !agreed, let active, active.recording, active.snapshot.player == player {
            return interrupt(.consentWithdrawn, at: now)
        }
        return []
    }

    /// A running recorded attempt of this player stops: it would keep a file they
    /// did not agree to.
    private mutating func recordWithoutRecording(_ player: String, at now: Double) throws(GameRefusal) -> [GameEffect] {
        guard roster.contains(player) else { throw .unknownPlayer(player) }
        consent.recordWithoutRecording(player, at: wallClock())
        if let active, active.recording, active.snapshot.player == player {
            return interrupt(.consentWithdrawn, at: now)
        }
        return []
    }

    /// Whether the current player's next attempt is recorded: recording on, and the
    /// player did not choose to play without it.
    public var recordsCurrentPlayer: Bool {
        settings.recording && !consent.playsWithoutRecording(currentPlayer)
    }
}
