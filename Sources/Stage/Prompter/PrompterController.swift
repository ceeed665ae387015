import Foundation
import Markup
import Prompter

/// The prompter's app state and every way it changes: keys, the outer tap, the
/// control socket. Pixel-free, owned by the event loop, and driven with explicit
/// times so tests use a manual clock. The scenes read it; they never change it.
package final class PrompterController {
    package enum Mode: String { case prompter, framing, library }

    package private(set) var engine: PrompterEngine
    package private(set) var settings: ReadingSettings
    package private(set) var script: OpenScript? {
        didSet { if script?.text != oldValue?.text { scriptHash = script.map { SHA256.hex($0.text) } } }
    }
    /// The SHA-256 of the open script's reading text, made once per text: a follower rig
    /// checks with it that it shows the lead's words (`prompter.anchor`).
    package private(set) var scriptHash: String?
    /// Paused by the talent's tap, which shows the upright "paused" badge.
    package private(set) var pausedByTap = false
    package private(set) var blanked = false
    package private(set) var mode: Mode = .prompter
    package private(set) var taps = 0
    /// The hand controller that owns the speed now (its name), if one does: the speed
    /// keys, the console and the remote show its speed and do not change it.
    package var speedHeldBy: String?
    /// Counts scripts opened; a script that moves (renamed, its folder renamed or
    /// deleted) keeps its count, so the console can tell a new script from a move.
    package private(set) var opened = 0
    /// The inner display's banner, where the prompter's own problems go too (a bad
    /// settings file, an unreadable script); the stage owns it.
    package let problems: ProblemBoard

    package let library: ScriptLibrary?
    /// Where the settings are kept; nil for a stage that keeps nothing (`rig snapshot`,
    /// `rig bench`), which keeps no reading position either.
    package let settingsStore: SettingsStore?
    /// Where reading was, for a restart (`LayoutWork` saves it and resumes there).
    let resume: ReadingResume?
    private var readingMarkers: ReadingMarkers
    /// The outer layout's maps between text and scroll offsets, lines and words (set by
    /// the stage, which owns the layout).
    package var markerLayout: MarkerLayout?
    package private(set) var finishTarget: FinishTarget?
    /// The reading speed of the script list's reading times.
    package let wordsPerMinute: Int
    /// Voice follow's hand on the engine while follow is on (`VoiceFollowController`
    /// feeds its driver what was heard); the keys and the tap consult it.
    package var follow = FollowSteering()

    /// Called after any change that alters what a display shows.
    package var onChange: () -> Void = {}
    /// Called when a follower rig's steering corrected the motion (the displays draw again).
    package var onSteer: () -> Void = {}
    /// Called when the text needs laying out again (script, font, size, margins, rotation).
    package var onLayoutChange: () -> Void = {}

    package init(library: ScriptLibrary?, stateDirectory: URL?, defaults: ReadingSettings, wordsPerMinute: Int,
                 problems: ProblemBoard = ProblemBoard()) {
        self.library = library
        self.problems = problems
        self.wordsPerMinute = wordsPerMinute
        settingsStore = stateDirectory.map { SettingsStore(directory: $0, defaults: defaults) }
        resume = stateDirectory.map { ReadingResume(directory: $0) }
        readingMarkers = ReadingMarkers(store: stateDirectory.map { MarkerStore(directory: $0) })
        settings = settingsStore?.settings ?? defaults
        engine = PrompterEngine(speed: settings.speed)
        applyEngineSettings()
        for problem in [settingsStore?.problem, resume?.store.problem, readingMarkers.store?.problem].compactMap({ $0 }) {
            problems.add(problem, for: .prompter)
        }
    }

    /// A problem of the prompter's own, on the banner from now on (and in the journal).
    package func addProblem(_ message: String) {
        problems.add(message, for: .prompter)
    }

    // MARK: scripts

    /// Opens a script stopped at the top, or where it was left if `resume` holds it.
    package func open(id: String, at t: Double) throws(ScriptLibraryError) {
        guard let library else { throw .notFound(id: id) }
        let opening = try OpenScript(id: id, in: library)
        openText(opening, at: t)
        if opening.repaired { addProblem("\(id): not valid UTF-8; shown with replacement characters") }
        KioskLog.notice("opened script \(id) (\(opening.wordCount) words)")
    }

    /// Opens text that is not in the library (`rig snapshot --script FILE`).
    package func openText(_ newScript: OpenScript, at t: Double) {
        script = newScript
        opened += 1
        follow.driver = nil
        engine = PrompterEngine(speed: settings.speed)
        applyEngineSettings()
        pausedByTap = false
        mode = .prompter
        onLayoutChange()
        onChange()
    }

    /// The open script was edited: the new text replaces it where the reading is,
    /// without stopping or going back to the top.
    package func replaceText(of id: String, with text: ScriptText) {
        guard let current = script, current.id == id,
              current.text != text.readingText || current.markup != text.markup else { return }
        script = OpenScript(id: id, title: current.title, reading: text)
        onLayoutChange()
        onChange()
    }

    /// The open script was renamed or moved: the prompter follows it to its new name,
    /// so the reading position is saved under the name it will be found by.
    package func scriptMoved(from oldID: String, to entry: ScriptEntry) {
        guard let current = script, current.id == oldID else { return }
        script = OpenScript(id: entry.id, title: entry.title, text: current.text, wordCount: current.wordCount,
                            repaired: current.repaired, markers: current.markers, markup: current.markup)
        readingMarkers.move(from: oldID, to: entry.id)
        onChange()
    }

    /// Scripts a folder edit moved (`ScriptLibrary.renameFolder`, `deleteFolder`): the
    /// open one may be among them.
    package func scriptsMoved(_ moved: [ScriptLibrary.MovedScript]) {
        for script in moved { scriptMoved(from: script.oldID, to: script.entry) }
    }

    /// New text layout: keeps the reading position on the same word.
    package func layoutChanged(at t: Double, maxOffset: Double, mapOffset: (Double) -> Double) {
        engine.relayout(at: t, newMaxOffset: maxOffset, mapOffset: mapOffset)
        refitTarget(at: t)
        onChange()
    }

    /// Moves the text to `offset` (resuming after a restart); a stopped script pauses there.
    package func seek(to offset: Double, at t: Double) {
        engine.seek(to: offset, at: t)
        follow.driver?.moved(toOffset: offset, at: t)
        onChange()
    }

    // MARK: transport

    package func play(at t: Double) {
        let resuming = engine.state(at: t) != .playing
        change { $0.play(at: t) }
        if resuming { follow.resumed(engine, at: t) }
        refitTarget(at: t)
    }
    package func pause(at t: Double) {
        follow.takeHold(engine, at: t)
        change { $0.pause(at: t) }
    }
    package func stop(at t: Double) { change { $0.stop(at: t) } }
    package func togglePlayPause(at t: Double) {
        // During follow's hold the text is already still: the key makes it the operator's pause.
        if follow.isHolding(engine, at: t) { return pause(at: t) }
        let resuming = engine.state(at: t) != .playing
        change { $0.togglePlayPause(at: t) }
        if resuming { follow.resumed(engine, at: t) }
        refitTarget(at: t)
    }
    // A speed set by hand drops a "finish in" target. While voice follow steers, the
    // speed keys move the reading line ahead of or behind the voice instead.
    package func faster(at t: Double) {
        if nudgeFollowLead(1, at: t) || speedIsHeld() { return }
        finishTarget = nil; change { $0.faster(at: t) }; rememberSpeed()
    }
    package func slower(at t: Double) {
        if nudgeFollowLead(-1, at: t) || speedIsHeld() { return }
        finishTarget = nil; change { $0.slower(at: t) }; rememberSpeed()
    }
    package func setSpeed(_ value: Int, at t: Double) {
        if speedIsHeld() { return }
        finishTarget = nil
        change { $0.setSpeed(value, at: t) }
        rememberSpeed()
    }

    private func speedIsHeld() -> Bool {
        guard let holder = speedHeldBy else { return false }
        KioskLog.info("speed change ignored: \(holder) is steering")
        return true
    }

    /// A hand controller's signed speed (0: back at rest, which pauses). The speed it
    /// sets is not remembered as the reading speed: it is the hand's, moment to moment.
    package func drive(rate: Double, at t: Double) {
        let resuming = engine.state(at: t) != .playing && rate != 0
        finishTarget = nil
        change { $0.drive(rate: rate, at: t) }
        if resuming { follow.resumed(engine, at: t) }
    }

    /// Glides to a scroll offset (a jog wheel's or mouse wheel's lines while paused).
    package func jump(toOffset target: Double, at t: Double) {
        guard script != nil else { return }
        change { $0.jump(to: target, at: t) }
        follow.driver?.moved(toOffset: engine.positionIgnoringGlide(at: t), at: t)
    }

    /// The talent's tap: pause where the text was when the finger came down, or go on.
    package func tap(at t: Double) {
        guard mode == .prompter, script != nil else { return }
        taps += 1
        // Follow holds the text for the talent's breath; their tap makes it their pause.
        if follow.takeHold(engine, at: t) {
            pausedByTap = true
            KioskLog.info("paused by a tap (follow was holding)")
            return onChange()
        }
        let wasPlaying = engine.state(at: t) == .playing
        engine.togglePlayPause(at: t)
        if !wasPlaying { follow.resumed(engine, at: t) }
        refitTarget(at: t)
        pausedByTap = wasPlaying
        KioskLog.info(wasPlaying ? "paused by a tap" : "resumed by a tap")
        onChange()
    }

    /// Changes the engine as a transport action: the tap badge goes, the displays follow.
    func change(_ body: (inout PrompterEngine) -> Void) {
        let before = engine.state
        body(&engine)
        pausedByTap = false
        if engine.state != before { KioskLog.info("prompter \(engine.state.rawValue)") }
        onChange()
    }

    /// A follower rig's steering: the engine as `LeadPursuit` left it. A correction
    /// redraws the displays; only a change of transport or speed is a state change.
    package func steer(to steered: PrompterEngine) {
        guard steered != engine else { return }
        let before = (engine.state, engine.speed)
        engine = steered
        pausedByTap = false
        if before.0 != engine.state || before.1 != engine.speed { onChange() } else { onSteer() }
    }

    private func rememberSpeed() {
        guard settings.speed != engine.speed else { return }
        updateSettings { $0.speed = engine.speed }
    }

    // MARK: pace

    /// Sets the speed to read `wpm` words per minute at the current font and column.
    /// Refused with the reason when the layout is not known or the speed is out of range.
    @discardableResult
    package func setWordsPerMinute(_ wpm: Int, at t: Double) throws(PaceError) -> Int {
        let speed = try ReadingPace.speed(forWordsPerMinute: wpm, in: markerLayout)
        setSpeed(speed, at: t)
        return speed
    }

    /// "Finish in 4:30": fits the speed so the rest of the script ends `seconds` from
    /// now, and keeps it fitted (`refitTarget`). Refused when the fit is outside
    /// the speed range; the speed is unchanged then.
    @discardableResult
    package func finish(in seconds: Double, at t: Double) throws(PaceError) -> Int {
        let fit = try ReadingPace.finish(in: seconds, engine: script == nil ? nil : engine, at: t)
        setSpeed(fit.speed, keeping: fit.target, at: t)
        KioskLog.info("speed fitted to finish in \(ReadingStopwatch.clock(seconds)): \(fit.speed) px/s")
        return fit.speed
    }

    /// Drops the deadline (`rig ctl finish off`, a speed set by hand).
    package func clearTarget() {
        guard finishTarget != nil else { return }
        finishTarget = nil
        onChange()
    }

    /// After a font change, a pause or a resume: the speed that still ends on time.
    /// While paused the clock runs, so the fit is made when play goes on.
    package func refitTarget(at t: Double) {
        guard let target = finishTarget, engine.state(at: t) == .playing else { return }
        let refit = ReadingPace.refit(target, engine: engine, at: t)
        if let speed = refit.speed { return setSpeed(speed, keeping: refit.target, at: t) }
        finishTarget = refit.target
        onChange()
    }

    private func setSpeed(_ speed: Int, keeping target: FinishTarget, at t: Double) {
        setSpeed(speed, at: t)
        finishTarget = target
    }

    // MARK: markers

    /// Every marker of the open script in reading order, placed in the current layout.
    package var markers: [PlacedMarker] {
        script.map { readingMarkers.placed(in: $0, layout: markerLayout) } ?? []
    }

    /// Glides to a marker (or the start), keeping playing or paused; returns it (nil for the start).
    @discardableResult
    package func jump(to target: MarkerTarget, at t: Double) throws(MarkerError) -> PlacedMarker? {
        guard let script else { throw .noScript }
        let marker = try readingMarkers.jumpTarget(target, in: script, layout: markerLayout, engine: engine, at: t)
        jump(toOffset: marker?.offset ?? 0, at: t)
        KioskLog.info("jumped to \(marker?.label ?? "the start")")
        return marker
    }

    /// Sets an unnamed marker at the line on the reading line, kept for this script.
    @discardableResult
    package func setMarker(at t: Double) throws(MarkerError) -> PlacedMarker {
        guard let script else { throw .noScript }
        defer { onChange() }
        return try readingMarkers.set(atScrollOffset: engine.positionIgnoringGlide(at: t), in: script, layout: markerLayout)
    }

    /// Forgets the operator's markers of the open script (its named ones stay).
    package func clearSetMarkers() throws(MarkerError) {
        guard let script else { throw .noScript }
        try readingMarkers.clear(scriptID: script.id)
        onChange()
    }

    /// The end of the text reached the reading line while playing: loop round, or stop
    /// there (and blank the talent's display when the setting says so).
    package func reachedEnd(at t: Double) {
        change { $0.commit(at: t) }
        if settings.endOfScript == .blank, engine.isEnded(at: t) { setBlanked(true) }
    }

    // MARK: voice follow

    /// Lets voice follow steer the engine at t, handing back at the operator's latest
    /// speed. Only a real change goes through `change`, so a tap's badge stays while
    /// follow leaves an operator's pause alone.
    package func driveFollow(at t: Double) {
        guard let steered = follow.steer(engine, operatorSpeed: settings.speed, at: t) else { return }
        change { $0 = steered }
    }

    /// A speed key while follow steers moves the reading line instead (`FollowSteering`);
    /// true when follow took it.
    private func nudgeFollowLead(_ steps: Int, at t: Double) -> Bool {
        switch follow.nudgeLead(by: steps, engine: engine, at: t) {
        case .notSteering: return false
        case .atLimit: break
        case .moved: onChange()
        case let .glide(glided): change { $0 = glided }
        }
        return true
    }

    // MARK: keys

    /// A bound key's action on the prompter (`PrompterKeys`).
    package func perform(_ action: KeyAction, at t: Double) {
        PrompterKeys.perform(action, on: self, at: t)
    }

    // MARK: outer display and modes

    package func setBlanked(_ on: Bool) {
        guard on != blanked else { return }
        blanked = on
        KioskLog.info(on ? "outer display blanked" : "outer display unblanked")
        onChange()
    }

    package func setMode(_ newMode: Mode) {
        guard newMode != mode else { return }
        mode = newMode
        KioskLog.info("mode \(newMode.rawValue)")
        onChange()
    }

    // MARK: settings

    /// Applies and saves a settings change at once; a change that moves text relays it out.
    package func updateSettings(_ change: (inout ReadingSettings) -> Void) {
        var updated = settings
        change(&updated)
        guard updated != settings else { return }
        let relayout = updated.relaysOut(from: settings)
        settings = updated
        applyEngineSettings()
        do {
            try settingsStore?.update(updated)
        } catch {
            KioskLog.error("cannot save the reading settings: \(error)")
        }
        if relayout { onLayoutChange() }
        onChange()
    }

    /// The countdown and the end of script are reading settings the engine acts on.
    private func applyEngineSettings() {
        engine.countdownSeconds = settings.countdown
        engine.endBehavior = settings.endOfScript == .loop ? .loop : .stop
    }
}
