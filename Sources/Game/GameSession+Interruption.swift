import Foundation

extension GameSession {
    /// Cancels the running attempt: everything of its generation stops, its media is
    /// discarded, the game voids it (no penalty, no challenge used) and Retry is offered
    /// with the same challenge.
    mutating func interrupt(_ reason: InterruptionReason, at now: Double) -> [GameEffect] {
        guard let active else { return [] }
        var record = attempts[active.index]
        record.interruption = reason
        record.verdicts.append(VerdictChange(verdict: .void, at: wallClock(), by: .game))
        var effects: [GameEffect] = [.cancel(generation: active.generation)]
        if active.recording {
            record.media = .discarded
            effects.append(.discardMedia(attempt: record.id))
        }
        attempts[active.index] = record
        // The selection as the host made it: a drawn rule is drawn again.
        retrySelection = active.selection
        self.active = nil
        phase = .interrupted
        return effects + [.save]
    }

    /// Device changes. Only a loss during an attempt interrupts it: the camera for a
    /// recorded attempt (or another camera in its place), and the participant's display
    /// for any attempt, since the participant's Stop lives there.
    mutating func rigChanged(_ conditions: RigConditions, at now: Double) -> [GameEffect] {
        let before = rig
        rig = conditions
        guard let active else { return [] }
        if active.recording {
            if conditions.cameraID != nil && conditions.cameraID != active.cameraID {
                return interrupt(.cameraChanged, at: now)
            }
            if conditions.cameraID == nil || !conditions.cameraStreaming {
                return interrupt(.cameraLost, at: now)
            }
        }
        if before.outerAvailable && !conditions.outerAvailable { return interrupt(.outerDisplayLost, at: now) }
        if before.outerEnabled && !conditions.outerEnabled { return interrupt(.outerDisplayOff, at: now) }
        return []
    }

    /// Back to ready with the interrupted challenge in the picker; nothing was scored.
    mutating func retry() -> [GameEffect] {
        if let retrySelection { selection = retrySelection }
        retrySelection = nil
        phase = .ready
        return [.save]
    }
}
