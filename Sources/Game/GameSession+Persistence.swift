import Foundation

extension GameSession {
    /// The session as a restart must find it. An attempt running now is saved as
    /// interrupted by shutdown (void, media to discard): capture is never resumed.
    public var saved: SavedSession {
        var copy = self
        if copy.active != nil { _ = copy.interrupt(.shutdown, at: 0) }
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
        session.attempts = saved.attempts
        session.turn = saved.turn
        session.selection = saved.selection
        session.retrySelection = saved.retrySelection
        session.ended = saved.ended
        session.lastGeneration = saved.lastGeneration
        session.lastCueID = saved.lastCueID
        session.phase = saved.phase.isCapturing ? .interrupted : saved.phase
        var effects: [GameEffect] = []
        if let last = saved.attempts.last, last.interruption == .shutdown, last.media == .discarded {
            effects.append(.discardMedia(attempt: last.id))
        }
        return (session, effects)
    }
}
