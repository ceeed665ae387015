import Foundation

extension GameSession {
    /// Handles a result, device change, interruption or tick. Never refuses: a result
    /// for another generation, or one the phase does not expect, changes nothing.
    public mutating func receive(_ event: GameEvent, at now: Double) -> [GameEffect] {
        switch event {
        case .rigChanged(let conditions): return rigChanged(conditions, at: now)
        case .interrupt(let reason): return active == nil ? [] : interrupt(reason, at: now)
        case .tick: return tick(at: now)
        default: break
        }
        guard let active, event.generation == active.generation else { return [] }
        switch event {
        case .speechPrepared(_, let duration): return speechPrepared(duration, at: now)
        case .mediaAccepted(_, let stream, let time): return mediaAccepted(stream, upTo: time, at: now)
        case .speechFinished(_, let start, let end): return speechFinished(start: start, end: end, at: now)
        case .cuePresented(_, let cue, let surface, let flip, let frame):
            return cuePresented(cue, on: surface, flipTime: flip, frame: frame, at: now)
        case .recordingFinalized(_, let file): return recordingFinalized(file)
        case .recordingFailed(_, let reason): return interrupt(.recordingFailed(reason), at: now)
        case .rigChanged, .interrupt, .tick: return []
        }
    }

    private mutating func speechPrepared(_ duration: Double, at now: Double) -> [GameEffect] {
        guard phase == .preparing, var active else { return [] }
        active.speechDuration = duration
        let generation = active.generation
        guard active.recording else {
            self.active = active
            phase = .speech
            return [.playSpeech(generation: generation)]
        }
        let length = RecordingTimeline.length(speech: duration, response: active.snapshot.responseDuration,
                                              visual: active.snapshot.cue != nil)
        if length > RecordingTimeline.bound {
            self.active = active
            return interrupt(.tooLongForRecording(seconds: length), at: now)
        }
        active.timeline = RecordingTimeline(origin: now, streams: active.snapshot.pictureOnly == true ? [.video] : [.audio, .video])
        attempts[active.index].timing.recordingOrigin = now
        self.active = active
        phase = .leadIn
        return [.startRecording(generation: generation, attempt: attempts[active.index].id)]
    }

    private mutating func mediaAccepted(_ stream: MediaStream, upTo time: Double, at now: Double) -> [GameEffect] {
        guard var active, var timeline = active.timeline else { return [] }
        timeline.accept(stream, upTo: time)
        active.timeline = timeline
        self.active = active
        switch phase {
        case .leadIn where timeline.leadInComplete:
            phase = .speech
            return [.playSpeech(generation: active.generation)]
        case .tail:
            return finishTailIfCovered()
        default:
            return []
        }
    }

    private mutating func speechFinished(start: Double, end: Double, at now: Double) -> [GameEffect] {
        guard phase == .speech, var active else { return [] }
        attempts[active.index].timing.speechStart = start
        attempts[active.index].timing.speechEnd = end
        guard let cue = active.snapshot.cue else {
            active.responseEnd = end + active.snapshot.responseDuration
            attempts[active.index].timing.responseStart = end
            attempts[active.index].timing.responseEnd = active.responseEnd
            self.active = active
            phase = .response
            return []
        }
        lastCueID += 1
        active.cue = CueHandshake(id: lastCueID, requestedAt: now)
        attempts[active.index].timing.cueRequestedAt = now
        self.active = active
        phase = .cue
        return [.showCue(generation: active.generation, cue: lastCueID, letter: cue.letter, duration: cue.duration)]
    }

    private mutating func cuePresented(_ id: UInt64, on surface: PresentationSurface, flipTime: Double,
                                       frame: UInt64, at now: Double) -> [GameEffect] {
        guard phase == .cue, var active, var handshake = active.cue, let spec = active.snapshot.cue else { return [] }
        switch handshake.presented(id: id, on: surface, flipTime: flipTime, frame: frame) {
        case .ignored:
            return []
        case .late:
            return interrupt(.cueNotShown, at: now)
        case .acknowledged(let onset):
            active.cue = handshake
            active.cueHideAt = onset + spec.duration
            active.responseEnd = onset + active.snapshot.responseDuration
            var timing = attempts[active.index].timing
            timing.cueOnset = onset
            timing.cueFrame = frame
            timing.cueOnTimeline = active.timeline.map { onset - $0.origin }
            timing.responseStart = onset
            timing.responseEnd = active.responseEnd
            attempts[active.index].timing = timing
            self.active = active
            phase = .response
            // The flip may be reported late; a window already over closes at once.
            return tick(at: now)
        }
    }

    private mutating func recordingFinalized(_ file: String) -> [GameEffect] {
        guard phase == .tail, let active, active.finalizing else { return [] }
        attempts[active.index].media = .saved(file: file)
        self.active = nil
        phase = .review
        return [.save]
    }

    mutating func tick(at now: Double) -> [GameEffect] {
        guard var active else { return [] }
        var effects: [GameEffect] = []
        switch phase {
        case .leadIn:
            if let deadline = active.leadInDeadline, now >= deadline, let timeline = active.timeline {
                return interrupt(.recordingStalled(timeline.laggingStream), at: now)
            }
        case .cue:
            if active.cue?.hasTimedOut(at: now) == true { return interrupt(.cueNotShown, at: now) }
        case .response:
            if let hide = active.cueHideAt, now >= hide, let cue = active.cue {
                active.cueHideAt = nil
                self.active = active
                effects.append(.hideCue(generation: active.generation, cue: cue.id))
            }
            if let end = active.responseEnd, now >= end {
                if active.recording {
                    phase = .tail
                    effects += finishTailIfCovered()
                } else {
                    self.active = nil
                    phase = .review
                    effects.append(.save)
                }
            }
        case .tail:
            if let end = active.tailEnd, !active.finalizing, now >= end + RecordingTimeline.stallGrace,
               let timeline = active.timeline {
                return interrupt(.recordingStalled(timeline.laggingStream), at: now)
            }
        default:
            break
        }
        return effects
    }

    /// Stops the recording once both streams have covered the tail.
    private mutating func finishTailIfCovered() -> [GameEffect] {
        guard var active, !active.finalizing, let end = active.tailEnd,
              active.timeline?.covers(end) == true else { return [] }
        active.finalizing = true
        self.active = active
        return [.stopRecording(generation: active.generation)]
    }
}
