import Foundation
@testable import Game

/// Shared test scaffolding: the shipped catalog, a session with every device ready and
/// everyone's consent, and a rig simulator that drives an attempt phase by phase on a
/// manual clock.
enum GameFixture {
    /// `share/game/actions.json`, found from this file's place in the repository.
    static let catalogURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("share/game/actions.json")

    static func catalog() throws -> ActionCatalog {
        try ActionCatalog.load(from: catalogURL)
    }

    static let readyRig = RigConditions(cameraID: "usb-cam-0", cameraStreaming: true, outerEnabled: true,
                                        outerAvailable: true, participantViewShown: true)

    static let wall: @Sendable () -> Double = { 1_760_000_000 }

    static func settings(mode: GameMode = .spoken, recording: Bool = true, perTurn: Int = 2) -> GameSettings {
        var settings = GameSettings()
        settings.mode = mode
        settings.recording = recording
        settings.challengesPerTurn = perTurn
        return settings
    }

    static func setup(_ settings: GameSettings = settings(), players: [String] = ["Ana", "Ben", "Cy"]) -> GameSetup {
        GameSetup(host: "Hal", players: players, settings: settings)
    }

    /// A session ready to Send: devices ready, everyone consented, a card selected.
    static func session(_ settings: GameSettings = settings(), seed: UInt64 = 7,
                        select card: String? = "hands.fingers-up",
                        rule: RuleChoice = .host(.simonSays)) throws -> GameSession {
        var session = try GameSession(setup: setup(settings), catalog: catalog(), random: GameRandom(seed: seed),
                                      wallClock: wall)
        _ = session.receive(.rigChanged(readyRig), at: 10)
        for player in session.roster {
            _ = try session.perform(.consent(player: player, agreed: true), at: 10)
        }
        if let card {
            _ = try session.perform(.select(ChallengeSelection(cardID: card, rule: rule)), at: 10)
        }
        return session
    }
}

/// Plays the rig's part: answers each effect the way working devices would, with
/// plausible timings, until the game reaches `target`.
struct RigSimulator {
    var now: Double
    var speech: Double = 2
    /// Delay from the cue's request to the outer display's flip.
    var cueFlipDelay: Double = 0.05
    var effects: [GameEffect] = []
    var phases: [GamePhase] = []

    init(start: Double = 100) {
        now = start
    }

    mutating func run(_ session: inout GameSession, until target: GamePhase) throws {
        var steps = 0
        while session.phase != target {
            steps += 1
            guard steps < 50 else { throw SimulatorError.stuck(session.phase) }
            try step(&session)
            if phases.last != session.phase { phases.append(session.phase) }
        }
    }

    mutating func step(_ session: inout GameSession) throws {
        let generation = session.activeGeneration ?? 0
        switch session.phase {
        case .ready:
            effects += try session.perform(.send, at: now)
        case .preparing:
            now += 0.2
            effects += session.receive(.speechPrepared(generation: generation, duration: speech), at: now)
        case .leadIn:
            now += 0.8
            effects += session.receive(.mediaAccepted(generation: generation, stream: .audio, upTo: now), at: now)
            effects += session.receive(.mediaAccepted(generation: generation, stream: .video, upTo: now), at: now)
        case .speech:
            let start = now + 0.01
            now = start + speech
            effects += session.receive(.speechFinished(generation: generation, start: start, end: now), at: now)
        case .cue:
            guard let cue = session.capture?.cue else { throw SimulatorError.stuck(.cue) }
            now += cueFlipDelay
            effects += session.receive(.cuePresented(generation: generation, cue: cue.id, surface: .outer,
                                                     flipTime: now, frame: 42), at: now)
        case .response:
            guard let deadline = session.nextDeadline else { throw SimulatorError.stuck(session.phase) }
            now = max(now, deadline)
            effects += session.receive(.tick, at: now)
        case .tail:
            if session.capture?.finalizing == true {
                effects += session.receive(.recordingFinalized(generation: generation, file: "attempt.mp4"), at: now)
            } else {
                now += 1.6
                effects += session.receive(.mediaAccepted(generation: generation, stream: .audio, upTo: now), at: now)
                effects += session.receive(.mediaAccepted(generation: generation, stream: .video, upTo: now), at: now)
            }
        case .review, .complete, .interrupted:
            throw SimulatorError.stuck(session.phase)
        }
    }
}

enum SimulatorError: Error {
    case stuck(GamePhase)
}

/// A wall clock a test can move.
final class TestWallClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Double

    init(_ start: Double = 1_760_000_000) {
        current = start
    }

    func now() -> Double {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    func advance(_ seconds: Double) {
        lock.lock()
        defer { lock.unlock() }
        current += seconds
    }
}

/// A fresh directory per test, removed afterwards.
final class TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("rig-game-tests-\(getpid())-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> URL { url.appendingPathComponent(name) }

    func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }
}
