import Foundation
import Game

/// The game's part of `rig ctl status` and of every game reply: the session's phase,
/// scores, consent and attempts with their cue timing, as the socket's JSON.
package struct GameStatusReport {
    let game: GameController
    /// The outer display's refresh: an attempt's cue is counted in its frames.
    let outerRefreshMillihertz: Int?

    package var json: JSONValue {
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
           let millihertz = outerRefreshMillihertz, millihertz > 0 {
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

    static func json(_ deletion: GameMediaDeletion) -> JSONValue {
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
