import Foundation
import Game

/// Carrying out what the session asks, in order, then keeping its timers set.
extension GameController {
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
        case .save: save()
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

    private func save() {
        guard let file, let session else { return }
        do {
            try file.save(session.saved)
            fileProblem = nil
        } catch {
            fileProblem = "game session not saved: \(error)"
            KioskLog.warning(fileProblem ?? "")
        }
    }

    /// A tick at the session's next deadline, and a redraw where the participant's
    /// countdown changes. The scheduler cannot cancel, so a timer that fires for a
    /// deadline no longer current does nothing.
    func keepTimersSet() {
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
