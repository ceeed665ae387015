import Foundation
import Media
import Prompter

/// Voice follow as the rig runs it: the open script's words go to the listening port,
/// what it hears is aligned with the script (`WordAligner`), and `FollowDriver` steers
/// the engine a few times a second from the word heard, holding on a pause and handing
/// the speed back to the operator when follow stops. Lives on the stage's thread.
package final class VoiceFollowController {
    static let tickInterval = 0.2
    static let heardWords = 8

    package var listening: any ListeningPort = NoListening()
    private let controller: PrompterController
    private let problems: ProblemBoard
    private let now: () -> Double
    private let schedule: (Double, @escaping () -> Void) -> Void
    /// The language rig.toml names (`[follow] language`).
    private var language: String
    /// What is followed: the text the model was built for.
    private(set) var text: String?
    private var script: ScriptWords?
    private var aligner: WordAligner?
    private var listenerReady = false
    /// The driver lives in the controller, where the keys and the tap reach it.
    private var driver: FollowDriver? {
        get { controller.follow.driver }
        set { controller.follow.driver = newValue }
    }
    private var driverMaxOffset = Double.nan
    /// The layout line of each script word, for the status.
    private var wordLines: [Int] = []
    /// Where the operator last moved the position (the driver's anchor), as seen here.
    private var anchor: FollowDriver.Anchor?
    /// Lines ahead of the voice: rig.toml's, then the speed keys'; kept across off and on.
    private var lead: Double
    private var utterances: [Int: [HeardWord]] = [:]
    private var ticking = false
    /// Bumped by every stop: a tick of an older follow does nothing.
    private var run = 0
    private(set) var heard: [String] = []
    private var heardAny = false
    private(set) var problem: String?
    /// On with no script yet (`[follow] enabled`): it follows the first one opened.
    private(set) var armed = false
    /// What the console's line showed last; a change draws the inner display.
    package private(set) var shown: FollowShown?
    var shownChanged: () -> Void = {}

    init(language: String, lead: Double, controller: PrompterController, problems: ProblemBoard,
         now: @escaping () -> Double, schedule: @escaping (Double, @escaping () -> Void) -> Void) {
        self.language = language
        self.lead = lead
        self.controller = controller
        self.problems = problems
        self.now = now
        self.schedule = schedule
    }

    package var isOn: Bool { text != nil || armed }

    /// At start: `[follow] enabled` arms follow for the first script opened.
    func startAtBoot() {
        if controller.script == nil {
            armed = true
            scheduleTick()
        } else if let reason = start() {
            problems.set(["voice follow: \(reason)"], for: .follow)
        }
    }

    /// `rig ctl follow on|off`.
    func request(on: Bool) -> ControlReply {
        guard on else {
            stop()
            KioskLog.info("voice follow off: the speed is the operator's again")
            return .success(["follow": status])
        }
        if let reason = start() { return .failure(reason) }
        return .success(["follow": status])
    }

    /// The follow key: on, or off when on.
    func toggle() {
        let reply = request(on: !isOn).body
        if reply["ok"]?.boolValue != true, let message = reply["error"]?.stringValue {
            KioskLog.warning("voice follow: \(message)")
        }
    }

    /// `rig ctl listen FILE.wav`: heard instead of the microphone, through the same path.
    func listen(path: String) -> ControlReply {
        guard isOn else { return .failure("listen needs voice follow on (rig ctl follow on)") }
        switch listening.listen(path: path) {
        case let .success(heard):
            KioskLog.info("voice follow: listening to \(path) (\(String(format: "%.1f", heard.seconds)) s) instead of the microphone")
            return .success(["seconds": .number(heard.seconds), "started": .number(heard.started)])
        case let .failure(refusal):
            return .failure(refusal.description)
        }
    }

    /// Starts following the open script; the reason when it cannot.
    private func start() -> String? {
        guard let open = controller.script else { return "voice follow needs an open script (rig ctl open PATH)" }
        if let refusal = listening.refusal(language: language) { return refusal }
        let words = ScriptWords(open.text, markup: open.markup)
        guard !words.words.isEmpty else { return ListeningError.noWords.description }
        stop()
        armed = true
        text = open.text
        script = words
        aligner = WordAligner(tokens: words.tokens)
        problem = nil
        listening.start(words: words, language: language)
        scheduleTick()
        publish()
        KioskLog.info("voice follow: building the language model of \(open.id) (\(words.words.count) words)")
        return nil
    }

    func stop() {
        armed = false
        if let driver, driver.mode != .waiting { handBack(driver) }
        listening.stop()
        listenerReady = false
        run += 1
        ticking = false
        text = nil
        script = nil
        aligner = nil
        if let driver { lead = driver.lead }
        driver = nil
        wordLines = []
        anchor = nil
        utterances = [:]
        heard = []
        heardAny = false
        publish()
    }

    /// Back to the operator's fixed speed (the latest they set), playing again if follow
    /// was holding a pause.
    private func handBack(_ driver: FollowDriver) {
        let time = now()
        if driver.mode == .holding, controller.engine.state(at: time) == .paused { controller.play(at: time) }
        let fixed = controller.settings.speed
        if controller.engine.speed != fixed { controller.setSpeed(fixed, at: time) }
    }

    // MARK: what the port says

    /// The recogniser for `words` is ready.
    func listenerStarted(for words: ScriptWords) {
        guard script == words, !listenerReady else { return }
        listenerReady = true
        KioskLog.info("voice follow: listening")
        publish()
    }

    func received(_ result: Result<FollowHearing, ListeningError>) {
        guard let script, var aligner else { return }
        switch result {
        case let .failure(error):
            // Before any hearing, the recogniser could not be made: its thread has ended.
            guard heardAny else { return failed(error.description) }
            problem = error.description
            KioskLog.warning("voice follow: \(error)")
        case let .success(heard):
            heardAny = true
            let hearing = heard.hearing
            utterances[hearing.utterance] = hearing.words
            var all = utterances.keys.sorted().flatMap { utterances[$0] ?? [] }
            // After the operator moved the position, only what was said since counts.
            if let anchor, let origin = heard.origin { all.removeAll { origin + $0.start < anchor.time } }
            self.heard = all.suffix(Self.heardWords).map(\.word)
            guard let last = all.last, let origin = heard.origin,
                  let position = aligner.update(heard: all.map(\.word), tokenWord: script.tokenWord) else { break }
            self.aligner = aligner
            let moved = driver?.word != position.word
            driver?.heard(word: position.word, confidence: position.confidence, heardAt: origin + last.end)
            // A new word steers at once rather than at the next tick (up to 0.2 s later):
            // after a pause that is the difference between catching up and lagging.
            if moved, driver != nil { controller.driveFollow(at: now()) }
            // Old utterances are kept only as far as the aligner looks back.
            if utterances.count > 4, let oldest = utterances.keys.min() { utterances[oldest] = nil }
        }
    }

    private func failed(_ message: String) {
        KioskLog.warning("voice follow: \(message)")
        stop()
        problem = message
        publish()
    }

    // MARK: the tick

    private func scheduleTick() {
        guard !ticking, isOn else { return }
        ticking = true
        let current = run
        schedule(now() + Self.tickInterval) { [weak self] in
            guard let self, current == self.run else { return }
            self.ticking = false
            self.tick()
        }
    }

    private func tick() {
        defer { scheduleTick(); publish() }
        if let open = controller.script?.text, open != text {
            // An edit or another script: the model is rebuilt for what is shown now.
            KioskLog.info("voice follow: the script changed; rebuilding its language model")
            if let reason = start() { problem = reason; stop() }
            return
        }
        guard listenerReady else { return }
        if driver == nil || driverMaxOffset != controller.engine.maxOffset { makeDriver() }
        guard driver != nil else { return }
        reanchor()
        controller.driveFollow(at: now())
    }

    /// The operator moved the position (a jump, a resume): the aligner searches from there.
    private func reanchor() {
        guard let moved = driver?.anchor, moved != anchor, var aligner, let script else { return }
        anchor = moved
        if let token = script.tokenWord.firstIndex(where: { $0 >= moved.word }) {
            aligner.anchor(token: token, tokenWord: script.tokenWord)
            self.aligner = aligner
        }
        KioskLog.info("voice follow: re-anchored at word \(moved.word)")
    }

    private func makeDriver() {
        guard let script, let layout = controller.markerLayout,
              let offsets = layout.offsets(ofScalars: script.words.map(\.scalarOffset)) else { return }
        let steps = zip(offsets.dropFirst(), offsets).map { $0 - $1 }.filter { $0 > 0.5 }.sorted()
        let lineHeight = steps.isEmpty ? 60 : steps[steps.count / 2]
        // The operator's speed (the settings'), not the engine's: follow may be steering it.
        var made = FollowDriver(wordOffsets: offsets, lineHeight: lineHeight, fixedSpeed: controller.settings.speed,
                                lead: driver?.lead ?? lead)
        wordLines = layout.lines(ofOffsets: offsets) ?? []
        if let old = driver, let word = old.word, let heardUpTo = listening.heardUpTo {
            made.heard(word: word, confidence: old.confidence, heardAt: heardUpTo)
        }
        driver = made
        driverMaxOffset = controller.engine.maxOffset
    }

    // MARK: what is shown

    /// Hands the console's line on when it changed.
    private func publish() {
        let line: FollowShown? = isOn ? FollowShown(
            mode: driver?.mode.rawValue ?? (listenerReady ? "waiting" : "starting"),
            confidence: driver?.confidence ?? 0, heard: heard.joined(separator: " "), problem: problem,
            lead: driver?.lead ?? lead) : nil
        guard line != shown else { return }
        shown = line
        shownChanged()
    }

    /// `follow` in `rig ctl status`.
    package var status: JSONValue {
        [
            "on": .bool(isOn),
            "listening": .bool(listenerReady),
            "word": driver?.word.map { .int($0) } ?? .null,
            "line": driver?.word.flatMap { wordLines.indices.contains($0) ? .int(wordLines[$0]) : nil } ?? .null,
            "line_starts": .array(lineStarts.map { .int($0) }),
            "lead": .number(driver?.lead ?? lead),
            "file": listening.fileStatus,
            "confidence": .number(driver?.confidence ?? 0),
            "mode": .optional(driver?.mode.rawValue),
            "heard": .string(heard.joined(separator: " ")),
            "problem": .optional(problem),
        ]
    }

    /// The first script word of each layout line: a word's line is the last entry at or
    /// below its index (a line with no word of its own repeats the next word's index).
    var lineStarts: [Int] {
        guard let last = wordLines.last else { return [] }
        var starts = [Int](repeating: wordLines.count, count: last + 1)
        for (word, line) in wordLines.enumerated().reversed() { starts[line] = word }
        for line in starts.indices.reversed().dropFirst() where starts[line] > starts[line + 1] { starts[line] = starts[line + 1] }
        return starts
    }
}
