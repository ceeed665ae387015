import Foundation

/// The cue's way onto the participant's display, frame by frame. The cue's frame may be
/// drawn ahead (at the speech's end report) and flipped at the cue's request; the cue's
/// id rides on the frame that shows it, so that frame's flip is the cue's onset; the
/// host's display waits while a cue awaits its first outer flip; and each cue's timing
/// is logged once its frame is on the glass (`cue N timing`, read by vrig/cue-latency),
/// never between the request and the onset, where a journal write on a slow disk
/// would sit.
struct CueHandshake {
    /// A frame drawn ahead for a cue, per display, until the frame that flips it.
    private var prepared: [DisplayRole: FrameReport] = [:]
    private var trace: CueTrace?
    private var note: String?
    /// The inner display skipped a frame for a cue: it draws again after the cue's flip.
    private var innerHeld = false

    /// Whether the inner display's frame waits: a cue waiting for its first outer flip
    /// has the loop to itself (a full console is far slower to draw than the
    /// participant's view), for at most the cue's 0.5 s limit.
    mutating func holdsInner(_ game: GameController, mustDraw: Bool) -> Bool {
        guard game.holdsCameraForCue, !mustDraw else { return false }
        innerHeld = true
        return true
    }

    /// A cue was asked for while an outer frame drawn for `time` is still in flight:
    /// that flip must complete before the cue's frame can be submitted. Said in the
    /// cue's timing line.
    mutating func waitingForFlight(drawnFor time: Double) {
        note = String(format: " waited_for_flight_of=%.4f", time)
    }

    /// The report of a frame just drawn for `role`, with what the cue adds to it. A
    /// frame drawn ahead for `upcoming` comes back with `preparedCue` set and is kept
    /// until a frame reports it shows it (`fromPrepared`), which then carries the cue
    /// if it is still the one shown. Otherwise an outer frame of the open game carries
    /// the cue it shows (`showsCue`). `composeStarted` and `now` time the cue's frame.
    mutating func drawn(_ drawn: FrameReport, role: DisplayRole,
                        upcoming: (generation: UInt64, cue: UInt64, overlay: CameraOverlay)?, showsCue: Bool,
                        game: GameController, composeStarted: Double, now: Double) -> FrameReport {
        var report = drawn
        if let upcoming, report.changed {
            report.showsGame = true
            report.preparedCue = (upcoming.generation, upcoming.cue)
            prepared[role] = report
            return report
        }
        if report.fromPrepared, let ahead = prepared.removeValue(forKey: role) {
            // The cue's id goes with the frame only if it is the one it was drawn for.
            report = ahead
            if let cue = game.shownCue, ahead.preparedCue?.generation == cue.generation,
               ahead.preparedCue?.cue == cue.cue {
                report.cue = cue
                trace = CueTrace(cue: cue.cue, composeStarted: composeStarted, submitted: now, prepared: true)
            }
            report.preparedCue = nil
            report.fromPrepared = true
        } else if role == .outer, report.changed, game.isOpen {
            report.showsGame = true
            if showsCue { report.cue = game.shownCue }
            if game.cueAwaitingOnset, let cue = game.shownCue {
                trace = CueTrace(cue: cue.cue, composeStarted: composeStarted, submitted: now, prepared: false)
            }
        }
        if !report.fromPrepared, report.changed { prepared[role] = nil }
        return report
    }

    /// At an outer flip: whether the inner display, held for a cue, may draw again.
    mutating func releasesInner(_ game: GameController) -> Bool {
        guard innerHeld, !game.holdsCameraForCue else { return false }
        innerHeld = false
        return true
    }

    /// At an outer flip of `shown` at `flip`: the cue's timing line, once, when this
    /// is the flip that shows the cue awaited.
    mutating func outerFlipped(_ shown: FrameReport?, at flip: Double, game: GameController, handled: Double) {
        guard let cue = shown?.cue, game.cueAwaitingOnset, let trace, trace.cue == cue.cue,
              let requested = game.session?.attempts.last?.timing.cueRequestedAt else { return }
        KioskLog.info(trace.line(requested: requested, flip: flip, handled: handled) + (note ?? ""))
        note = nil
        self.trace = nil
    }
}
