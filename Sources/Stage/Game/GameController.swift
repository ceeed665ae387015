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
    /// Where the session lives (state dir/game/session.json); nil keeps nothing.
    package let file: GameSessionFile?
    /// The last trouble with the session file, for the console and status.
    package internal(set) var fileProblem: String?
    /// The cue the participant view shows from its request until it is hidden.
    package internal(set) var shownCue: (generation: UInt64, cue: UInt64)?
    /// What the rig was last told of the devices.
    package private(set) var conditions = RigConditions.unknown
    /// Names this game session in recordings' metadata (its start, UTC); kept beside
    /// the session file so a restored game keeps its name.
    package private(set) var sessionID = ""

    let now: () -> Double
    let schedule: (Double, @escaping () -> Void) -> Void
    private var loggedCue: UInt64?
    var scheduledTick: Double?
    var scheduledCountdown: Double?
    /// The last refusal of a console action, shown on the Game screen until the next action.
    package var notice: String?
    /// Something the displays show changed.
    package var onChange: () -> Void = {}

    package init(catalogURL: URL, stateDirectory: URL?, now: @escaping () -> Double,
                 schedule: @escaping (Double, @escaping () -> Void) -> Void) {
        self.now = now
        self.schedule = schedule
        file = stateDirectory.map { GameSessionFile(url: $0.appendingPathComponent("game/session.json")) }
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
        guard let file, let catalog else { return }
        do {
            guard let saved = try file.load() else { return }
            let restored = try GameSession.restore(saved, catalog: catalog, wallClock: Self.wallClock)
            sessionID = (try? String(contentsOf: sessionIDURL(file), encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            if sessionID.isEmpty { newSessionID() }
            session = restored.session
            apply(restored.effects)
            if restored.session.pendingReview != nil { KioskLog.info("game restored with a review pending") }
        } catch {
            fileProblem = "game session: \(error)"
            KioskLog.warning("game session not restored: \(error)")
        }
    }

    private func sessionIDURL(_ file: GameSessionFile) -> URL {
        file.url.deletingLastPathComponent().appendingPathComponent("session-id")
    }

    private func newSessionID() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        sessionID = "game-" + formatter.string(from: Date(timeIntervalSince1970: Self.wallClock()))
        guard let file else { return }
        try? AtomicFile.createOwnerOnlyFolder(file.url.deletingLastPathComponent())
        do {
            try AtomicFile.write(Data(sessionID.utf8), to: sessionIDURL(file), access: .ownerOnly)
        } catch {
            KioskLog.warning("game session id not saved: \(error)")
        }
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
}

/// Why the stage refused a game request. Nothing changed.
package enum GameControlError: Error, Equatable, CustomStringConvertible {
    case noCatalog(String)
    case noGame
    case attemptRunning
    case notReady([String])
    case refused(GameRefusal)
    case badRequest(String)

    package var description: String {
        switch self {
        case .noCatalog(let reason): "The game cannot start: \(reason)"
        case .noGame: "No game is set up; give the players first (rig ctl game setup players=Ann,Bo)"
        case .attemptRunning: "An attempt is running; stop it first"
        case .notReady(let reasons): "Not ready to send: " + reasons.joined(separator: "; ")
        case .refused(let refusal): refusal.description
        case .badRequest(let message): message
        }
    }
}
