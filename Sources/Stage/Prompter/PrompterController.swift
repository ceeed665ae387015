import Foundation
import Markup
import Prompter

/// The prompter's app state and every way it changes: keys, the outer tap, the
/// control socket. Pixel-free, owned by the event loop, and driven with explicit
/// times so tests use a manual clock. The scenes read it; they never change it.
package final class PrompterController {
    package struct OpenScript: Equatable {
        package let id: String
        package let title: String
        package let text: String
        package let wordCount: Int
        package let repaired: Bool
        /// The named markers of the text (headings, `>>` lines).
        package var markers: [ScriptMarker] = []
        /// Emphasis, directions and highlights on `text`.
        package var markup: ReadingMarkup = .none
    }

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
    /// Where the settings and the reading position are kept; nil for a stage that
    /// keeps nothing (`rig snapshot`, `rig bench`).
    package let settingsStore: SettingsStore?
    package let resumeStore: ResumeStore?
    /// The operator's markers per script; nil keeps them in `unsavedMarkers` only.
    package let markerStore: MarkerStore?
    /// Operator markers of a stage that keeps nothing, by script id.
    var unsavedMarkers: [String: [ScriptMarker]] = [:]
    /// Marker places in the outer layout: text offset to scroll offset, and the text
    /// offset of the line at a scroll offset (set by the stage, which owns the layout).
    package var markerLayout: MarkerLayout?
    /// "Finish in 4:30": when the rest of the script should end (stage time); the
    /// speed is fitted to it and fitted again after a font change or a pause.
    package internal(set) var targetEnd: Double?
    /// Why the target can no longer be met, shown with it.
    package internal(set) var targetProblem: String?
    package let wordsPerMinute: Int
    /// Voice follow's hand on the engine while follow is on (the kiosk's `VoiceFollow`
    /// feeds it what was heard); the keys and the tap consult it (PrompterController+Follow).
    package var followDriver: FollowDriver?
    /// Only a controller that keeps state has a writer thread.
    private let stateWriter: StateWriter?
    /// The reading position last handed to `stateWriter`.
    private var lastSavedResume: ResumeState?

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
        resumeStore = stateDirectory.map { ResumeStore(directory: $0) }
        markerStore = stateDirectory.map { MarkerStore(directory: $0) }
        stateWriter = stateDirectory == nil ? nil : StateWriter()
        settings = settingsStore?.settings ?? defaults
        engine = PrompterEngine(speed: settings.speed)
        applyEngineSettings()
        for problem in [settingsStore?.problem, resumeStore?.problem, markerStore?.problem].compactMap({ $0 }) {
            problems.add(problem, for: .prompter)
        }
    }

    deinit { stateWriter?.stop() }

    /// A problem of the prompter's own, on the banner from now on (and in the journal).
    package func addProblem(_ message: String) {
        problems.add(message, for: .prompter)
    }

    // MARK: scripts

    /// Opens a script stopped at the top, or where it was left if `resume` holds it.
    package func open(id: String, at t: Double) throws(ScriptLibraryError) {
        guard let library else { throw .notFound(id: id) }
        let text = try library.readScript(id: id)
        let title = library.entry(id: id)?.title ?? (id as NSString).deletingPathExtension
        openText(OpenScript(id: id, title: title, text: text.readingText, wordCount: text.wordCount,
                            repaired: text.repaired, markers: text.markers, markup: text.markup), at: t)
        if text.repaired { addProblem("\(id): not valid UTF-8; shown with replacement characters") }
        KioskLog.notice("opened script \(id) (\(text.wordCount) words)")
    }

    /// Opens text that is not in the library (`rig snapshot --script FILE`).
    package func openText(_ newScript: OpenScript, at t: Double) {
        script = newScript
        opened += 1
        followDriver = nil
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
        script = OpenScript(id: id, title: current.title, text: text.readingText, wordCount: text.wordCount,
                            repaired: text.repaired, markers: text.markers, markup: text.markup)
        onLayoutChange()
        onChange()
    }

    /// The open script was renamed or moved: the prompter follows it to its new name,
    /// so the reading position is saved under the name it will be found by.
    package func scriptMoved(from oldID: String, to entry: ScriptEntry) {
        guard let current = script, current.id == oldID else { return }
        script = OpenScript(id: entry.id, title: entry.title, text: current.text, wordCount: current.wordCount,
                            repaired: current.repaired, markers: current.markers)
        do {
            try markerStore?.move(from: oldID, to: entry.id)
        } catch {
            KioskLog.error("cannot keep the markers of \(oldID): \(error)")
        }
        onChange()
    }

    /// The offset to resume at once the layout of the script is known.
    package var resumePoint: ResumeState? {
        guard let script, let saved = lastSavedResume ?? resumeStore?.state, saved.scriptID == script.id else { return nil }
        return saved
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
        followDriver?.moved(toOffset: offset, at: t)
        onChange()
    }

    /// Saves where reading is, so a restart resumes there. Cheap when nothing moved:
    /// the loop encodes, `stateWriter` does the atomic write with its fsyncs.
    package func saveResume(at t: Double, wordIndex: Int?) {
        guard let script, let resumeStore else { return }
        let state = ResumeState(scriptID: script.id, offset: engine.offset(at: t), wordIndex: wordIndex)
        guard state != (lastSavedResume ?? resumeStore.state) else { return }
        do {
            stateWriter?.write(try JSONStateFile.encode(state), to: resumeStore.file.url)
            lastSavedResume = state
        } catch {
            KioskLog.error("cannot encode the reading position: \(error)")
        }
    }

    /// Waits for queued state writes (at shutdown, and in tests).
    package func flushStateWrites() { stateWriter?.flush() }

    // MARK: transport

    package func play(at t: Double) {
        let resuming = engine.state(at: t) != .playing
        change { $0.play(at: t) }
        if resuming { followResumed(at: t) }
        refitTarget(at: t)
    }
    package func pause(at t: Double) {
        if followHolding(at: t) { followDriver?.operatorPaused() }
        change { $0.pause(at: t) }
    }
    package func stop(at t: Double) { change { $0.stop(at: t) } }
    package func togglePlayPause(at t: Double) {
        // During follow's hold the text is already still: the key makes it the operator's pause.
        if followHolding(at: t) { return pause(at: t) }
        let resuming = engine.state(at: t) != .playing
        change { $0.togglePlayPause(at: t) }
        if resuming { followResumed(at: t) }
        refitTarget(at: t)
    }
    // A speed set by hand drops a "finish in" target. While voice follow steers, the
    // speed keys move the reading line ahead of or behind the voice instead.
    package func faster(at t: Double) {
        if nudgeFollowLead(1, at: t) || speedIsHeld() { return }
        targetEnd = nil; change { $0.faster(at: t) }; rememberSpeed()
    }
    package func slower(at t: Double) {
        if nudgeFollowLead(-1, at: t) || speedIsHeld() { return }
        targetEnd = nil; change { $0.slower(at: t) }; rememberSpeed()
    }
    package func setSpeed(_ value: Int, at t: Double) {
        if speedIsHeld() { return }
        targetEnd = nil
        targetProblem = nil
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
        targetEnd = nil
        change { $0.drive(rate: rate, at: t) }
        if resuming { followResumed(at: t) }
    }

    /// Glides to a scroll offset (a jog wheel's or mouse wheel's lines while paused).
    package func jump(toOffset target: Double, at t: Double) {
        guard script != nil else { return }
        change { $0.jump(to: target, at: t) }
        followDriver?.moved(toOffset: engine.positionIgnoringGlide(at: t), at: t)
    }

    /// The talent's tap: pause where the text was when the finger came down, or go on.
    package func tap(at t: Double) {
        guard mode == .prompter, script != nil else { return }
        taps += 1
        if followHolding(at: t) {
            // Follow holds the text for the talent's breath; their tap makes it their pause.
            followDriver?.operatorPaused()
            pausedByTap = true
            KioskLog.info("paused by a tap (follow was holding)")
            return onChange()
        }
        let wasPlaying = engine.state(at: t) == .playing
        engine.togglePlayPause(at: t)
        if !wasPlaying { followResumed(at: t) }
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
        let relayout = updated.fontFamily != settings.fontFamily || updated.fontSize != settings.fontSize
            || updated.lineSpacing != settings.lineSpacing || updated.margin != settings.margin
            || updated.rotation.isQuarterTurn != settings.rotation.isQuarterTurn
            || updated.alignment != settings.alignment || updated.weight != settings.weight
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
}

extension PrompterController {
    /// The countdown and the end of script are reading settings the engine acts on.
    func applyEngineSettings() {
        engine.countdownSeconds = settings.countdown
        engine.endBehavior = settings.endOfScript == .loop ? .loop : .stop
    }
}

extension TextRotation {
    /// 90 and 270 turn the text onto the display's other axis, so the column changes.
    package var isQuarterTurn: Bool { self == .quarter || self == .threeQuarters }
}
