import Foundation
import Game

/// `rig ctl game ...`: the game's requests on the control socket, and its status.
/// A refused request says why and changes nothing.
extension RigStage {
    package func handleGame(_ json: JSONValue) -> ControlReply {
        switch GameControlRequest.parse(json) {
        case let .failure(error): return .failure(error.description)
        case let .success(request):
            let deletion: GameMediaDeletion?
            do {
                deletion = try perform(request)
            } catch {
                return .failure(error.description)
            }
            guard let deletion else { return .success(["game": gameStatus]) }
            return .success(["game": gameStatus, "media": Self.json(deletion)])
        }
    }

    /// Carries out a request; a media deletion says what it did.
    private func perform(_ request: GameControlRequest) throws(GameControlError) -> GameMediaDeletion? {
        switch request {
        case let .end(deleteMedia):
            let deletion = try game.endGame(deletingMedia: deleteMedia)
            gameMediaDeleted(deletion)
            return deletion
        case .deleteMedia:
            let deletion = try game.deleteGameMedia()
            gameMediaDeleted(deletion)
            return deletion
        default:
            try performOther(request)
            return nil
        }
    }

    private func performOther(_ request: GameControlRequest) throws(GameControlError) {
        switch request {
        case .status: return
        case .open: try requireGame(); openGame()
        case .leave: leaveGame()
        case let .setup(values): try setUpGame(values)
        case let .consent(player, agreed): try game.perform(.consent(player: player, agreed: agreed))
        case let .playWithoutRecording(player): try game.perform(.playWithoutRecording(player: player))
        case let .select(selection): try game.perform(.select(selection))
        case .send: try game.perform(.send)
        case .stop: try game.perform(.stop)
        case .retry: try game.perform(.retry)
        case .next: try game.perform(.next)
        case .end, .deleteMedia: return
        case let .verdict(verdict, nil): try game.perform(.judge(verdict))
        case let .verdict(verdict, attempt?): try game.perform(.correct(attempt: attempt, verdict))
        }
    }

    private func requireGame() throws(GameControlError) {
        if game.session == nil { throw .noGame }
    }

    /// With `players`, a new game (recording on by default where a camera is
    /// configured); without, new settings for the game set up.
    private func setUpGame(_ values: [String: String]) throws(GameControlError) {
        if let players = values["players"] {
            var base = GameSettings()
            base.recording = settings.cameraEnabled
            let chosen = try GameSetupValues.apply(values, to: base).get()
            try game.start(GameSetup(host: values["host"] ?? "Host", players: GameSetupValues.players(players),
                                     settings: chosen))
        } else {
            guard let session = game.session else { throw .noGame }
            if values["host"] != nil { throw .badRequest("game setup: the host is set with the players (a new game)") }
            let chosen = try GameSetupValues.apply(values, to: session.settings).get()
            try game.perform(.changeSettings(chosen))
        }
        openGame()
    }

    /// The game's part of `rig ctl status` and of every game reply.
    package var gameStatus: JSONValue {
        guard let session = game.session else {
            return ["open": .bool(game.isOpen), "phase": .null, "ready": false,
                    "readiness": .array(game.readinessReasons.map { .string($0) })]
        }
        let scores = session.scoreboard.players.map { row -> JSONValue in
            ["player": .string(row.player), "points": .int(row.points), "scored": .int(row.scored),
             "voided": .int(row.voided)]
        }
        return [
            "open": .bool(game.isOpen),
            "phase": .string(session.phase.rawValue),
            "player": .string(session.currentPlayer),
            "turn": .int(session.turn + 1),
            "mode": .string(session.settings.mode.rawValue),
            "recording": .bool(session.settings.recording),
            "picture_only": .bool(session.settings.recording && session.settings.pictureOnly),
            "ready": .bool(game.readinessReasons.isEmpty),
            "readiness": .array(game.readinessReasons.map { .string($0) }),
            "warnings": .array(game.readinessWarnings.map { .string($0) }),
            "allowed": .array(session.allowedActions.map(\.rawValue).sorted().map { .string($0) }),
            "snapshot": (session.activeSnapshot ?? session.attempts.last?.snapshot).map(Self.json) ?? .null,
            "scores": .array(scores),
            "consent": .object(Dictionary(uniqueKeysWithValues: session.roster.map { player in
                (player, JSONValue.string(session.consent.hasAgreed(player) ? "agreed"
                    : session.consent.playsWithoutRecording(player) ? "norecord" : "unasked"))
            })),
            "attempts": .array(session.attempts.map(attemptJSON)),
            "problem": .optional(game.fileProblem),
        ]
    }

    private func attemptJSON(_ attempt: AttemptRecord) -> JSONValue {
        let timing = attempt.timing
        func time(_ value: Double?) -> JSONValue { value.map { .number($0) } ?? .null }
        // Frames of the outer display's refresh from the request to the flip that showed
        // the cue: 1 is the next vblank after the request.
        var frames: JSONValue = .null
        if let onset = timing.cueOnset, let request = timing.cueRequestedAt,
           let millihertz = displays[.outer]?.mode?.refreshMillihertz, millihertz > 0 {
            frames = .int(Int(((onset - request) * Double(millihertz) / 1000 - 1e-6).rounded(.up)))
        }
        return [
            "id": .int(attempt.id),
            "player": .string(attempt.snapshot.player),
            "instruction": .string(attempt.snapshot.instruction),
            "verdict": .optional(attempt.verdict?.rawValue),
            "interruption": .optional(attempt.interruption?.description),
            "sent": time(timing.sentAt),
            "speech_start": time(timing.speechStart),
            "speech_end": time(timing.speechEnd),
            "cue_requested": time(timing.cueRequestedAt),
            "cue_onset": time(timing.cueOnset),
            "cue_flip_sequence": timing.cueFrame.map { .int(Int($0)) } ?? .null,
            "cue_frames_after_request": frames,
            "response_start": time(timing.responseStart),
            "response_end": time(timing.responseEnd),
        ]
    }

    private static func json(_ deletion: GameMediaDeletion) -> JSONValue {
        ["deleted": .array(deletion.deleted.map { .int($0) }),
         "in_use": .array(deletion.inUse.map { ["attempt": .int($0.attempt), "by": .array($0.users.map { .string($0) })] }),
         "message": .string(deletion.description)]
    }

    /// A Codable game value as the socket's JSON.
    private static func json<T: Encodable>(_ value: T) -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(value)).flatMap(JSONValue.parse) ?? .null
    }
}
