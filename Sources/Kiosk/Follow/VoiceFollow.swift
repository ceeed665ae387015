import Foundation
import Media
import Prompter
import Stage

/// Voice follow in the kiosk: the open script's language model is built on a worker
/// thread, microphone pieces (the capture ring, or a WAV file paced on the loop's clock)
/// go to a `VoiceListener`, its hearings come back through the mailbox, and a loop timer
/// runs the aligner and `FollowDriver` a few times a second. Lives on the loop thread.
final class VoiceFollow {
    static let tickInterval = 0.2
    static let heardWords = 8

    private let loop: EventLoop
    private let controller: PrompterController
    private let folder: URL
    /// What is followed: the text the model was built for.
    private(set) var text: String?
    private var script: ScriptWords?
    private var listener: VoiceListener?
    private var aligner: WordAligner?
    /// The driver lives in the controller, where the keys and the tap reach it.
    private var driver: FollowDriver? {
        get { controller.followDriver }
        set { controller.followDriver = newValue }
    }
    private var driverMaxOffset = Double.nan
    /// The layout line of each script word, for the status.
    private var wordLines: [Int] = []
    /// Where the operator last moved the position (the driver's anchor), as seen here.
    private var anchor: FollowDriver.Anchor?
    /// Lines ahead of the voice: rig.toml's, then the speed keys'; kept across off and on.
    var lead = 0.0
    private var utterances: [Int: [HeardWord]] = [:]
    private var timer: EventLoop.TimerID?
    private var language = "en"
    /// Audio seconds handed to the listener so far, and the loop time of audio time 0.
    private var fedSeconds = 0.0
    private var audioOrigin: Double?
    private(set) var heard: [String] = []
    private var heardAny = false
    private(set) var problem: String?
    /// Where microphone audio comes from besides a file: the capture ring and the next frame.
    var captureRing: AudioCaptureRing?
    private var nextCaptureFrame: Int64?
    private var file: (samples: [Int16], rate: Int, next: Int, startedAt: Double)?
    /// The WAV file being heard (`rig ctl listen`), for the status: its loop time 0 and length.
    private var fileHeard: (path: String, startedAt: Double, seconds: Double)?
    private let handle = FollowHandle()
    /// Output: what the console shows of follow changed (nil: off); the kiosk hands it to the stage.
    var shownChanged: (FollowShown?) -> Void = { _ in }
    private var lastShown: FollowShown?

    /// On with no script yet (`[follow] enabled`): it follows the first one opened.
    private(set) var armed = false
    var isOn: Bool { text != nil || armed }
    var isListening: Bool { listener != nil }

    init(loop: EventLoop, controller: PrompterController, folder: URL) {
        self.loop = loop
        self.controller = controller
        self.folder = folder
        handle.follow = self
    }

    deinit { listener?.stop() }

    /// Starts following the open script; the reason when it cannot.
    func start(language: String) -> String? {
        guard let open = controller.script else { return "voice follow needs an open script (rig ctl open PATH)" }
        let base = language.lowercased().split(separator: "-").first.map(String.init) ?? ""
        guard SpeechRecognizer.languages.contains(base) else { return ListeningError.unsupportedLanguage(language).description }
        guard FileManager.default.fileExists(atPath: SpeechRecognizer.modelFolder) else {
            return ListeningError.modelMissing(path: SpeechRecognizer.modelFolder).description
        }
        let words = ScriptWords(open.text)
        guard !words.words.isEmpty else { return ListeningError.noWords.description }
        stop()
        self.language = language
        armed = true
        text = open.text
        script = words
        aligner = WordAligner(tokens: words.tokens)
        problem = nil
        nextCaptureFrame = captureRing?.latest.map { $0.firstFrame + Int64($0.samples.count) }
        let handle = handle
        let mailbox = loop.mailbox
        let folder = folder
        let sentences = words.sentences
        // Reading the CMU dictionary and writing the model take long enough to hold the loop.
        let worker = Thread {
            do throws(ListeningError) {
                let model = try ScriptLanguageModel(sentences: sentences)
                let dictionary = try PronouncingDictionary.installed(words: model.vocabulary)
                let listener = VoiceListener(model: model, dictionary: dictionary, language: base, folder: folder) { result in
                    mailbox.post { handle.follow?.received(result) }
                }
                mailbox.post { handle.follow?.listening(listener, for: words) }
            } catch {
                mailbox.post { handle.follow?.failed(error.description) }
            }
        }
        worker.name = "rig-follow-model"
        worker.start()
        schedule()
        KioskLog.info("voice follow: building the language model of \(open.id) (\(words.words.count) words)")
        return nil
    }

    /// Follow on before there is a script: the first script opened is followed.
    func arm(language: String) {
        self.language = language
        armed = true
        schedule()
    }

    func stop() {
        armed = false
        if let driver, driver.mode != .waiting { handBack(driver) }
        listener?.stop()
        listener = nil
        if let timer { loop.cancel(timer) }
        timer = nil
        text = nil
        script = nil
        aligner = nil
        if let driver { lead = driver.lead }
        driver = nil
        wordLines = []
        anchor = nil
        fileHeard = nil
        utterances = [:]
        heard = []
        heardAny = false
        file = nil
        fedSeconds = 0
        audioOrigin = nil
        publish()
    }

    /// What the console's line shows now: the mode, the confidence, the heard words.
    var shown: FollowShown? {
        guard isOn else { return nil }
        return FollowShown(mode: driver?.mode.rawValue ?? (listener == nil ? "starting" : "waiting"),
                           confidence: driver?.confidence ?? 0, heard: heard.joined(separator: " "), problem: problem,
                           lead: driver?.lead ?? lead)
    }

    /// Hands the console's line to the stage when it changed.
    private func publish() {
        let now = shown
        guard now != lastShown else { return }
        lastShown = now
        shownChanged(now)
    }

    /// Back to the operator's fixed speed (the latest they set), playing again if follow
    /// was holding a pause.
    private func handBack(_ driver: FollowDriver) {
        let now = loop.clock()
        if driver.mode == .holding, controller.engine.state(at: now) == .paused { controller.play(at: now) }
        let fixed = controller.settings.speed
        if controller.engine.speed != fixed { controller.setSpeed(fixed, at: now) }
    }

    /// Takes the microphone from a WAV file, in real time from now; returns that time.
    @discardableResult
    func listen(samples: [Int16], rate: Int, path: String = "") -> Double {
        let now = loop.clock()
        file = (samples, rate, 0, now)
        fileHeard = (path, now, Double(samples.count) / Double(max(1, rate)))
        return now
    }

    var status: JSONValue {
        [
            "on": .bool(isOn),
            "listening": .bool(isListening),
            "word": driver?.word.map { .int($0) } ?? .null,
            "line": driver?.word.flatMap { wordLines.indices.contains($0) ? .int(wordLines[$0]) : nil } ?? .null,
            "line_starts": .array(lineStarts.map { .int($0) }),
            "lead": .number(driver?.lead ?? lead),
            "file": fileHeard.map { ["path": .string($0.path), "started": .number($0.startedAt), "seconds": .number($0.seconds)] }
                ?? .null,
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

    // MARK: on the loop

    private func listening(_ made: VoiceListener, for words: ScriptWords) {
        guard script == words, listener == nil else { return made.stop() }
        listener = made
        KioskLog.info("voice follow: listening")
    }

    private func failed(_ message: String) {
        problem = message
        KioskLog.warning("voice follow: \(message)")
        stop()
        problem = message
    }

    private func received(_ result: Result<Hearing, ListeningError>) {
        guard let script, var aligner else { return }
        switch result {
        case let .failure(error):
            // Before any hearing, the recogniser could not be made: its thread has ended.
            guard heardAny else { return failed(error.description) }
            problem = error.description
            KioskLog.warning("voice follow: \(error)")
        case let .success(hearing):
            heardAny = true
            utterances[hearing.utterance] = hearing.words
            var all = utterances.keys.sorted().flatMap { utterances[$0] ?? [] }
            // After the operator moved the position, only what was said since counts.
            if let anchor, let origin = audioOrigin { all.removeAll { origin + $0.start < anchor.time } }
            heard = all.suffix(Self.heardWords).map(\.word)
            guard let last = all.last, let origin = audioOrigin,
                  let position = aligner.update(heard: all.map(\.word), tokenWord: script.tokenWord) else { break }
            self.aligner = aligner
            let moved = driver?.word != position.word
            driver?.heard(word: position.word, confidence: position.confidence, heardAt: origin + last.end)
            // A new word steers at once rather than at the next tick (up to 0.2 s later):
            // after a pause that is the difference between catching up and lagging.
            if moved, driver != nil { controller.driveFollow(at: loop.clock()) }
            // Old utterances are kept only as far as the aligner looks back.
            if utterances.count > 4, let oldest = utterances.keys.min() { utterances[oldest] = nil }
        }
    }

    private func schedule() {
        guard timer == nil, isOn else { return }
        timer = loop.addTimer(at: loop.clock() + Self.tickInterval) { [weak self] in self?.tick() }
    }

    private func tick() {
        timer = nil
        let now = loop.clock()
        defer { schedule(); publish() }
        if let open = controller.script?.text, open != text {
            // An edit or another script: the model is rebuilt for what is shown now.
            KioskLog.info("voice follow: the script changed; rebuilding its language model")
            if let reason = start(language: language) { problem = reason; stop() }
            return
        }
        guard let listener else { return }
        feed(listener, now: now)
        if driver == nil || driverMaxOffset != controller.engine.maxOffset { makeDriver() }
        guard driver != nil else { return }
        reanchor()
        controller.driveFollow(at: now)
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
        guard let script, let offsets = controller.followOffsets(ofScalars: script.words.map(\.scalarOffset)) else { return }
        let steps = zip(offsets.dropFirst(), offsets).map { $0 - $1 }.filter { $0 > 0.5 }.sorted()
        let lineHeight = steps.isEmpty ? 60 : steps[steps.count / 2]
        // The operator's speed (the settings'), not the engine's: follow may be steering it.
        var made = FollowDriver(wordOffsets: offsets, lineHeight: lineHeight, fixedSpeed: controller.settings.speed,
                                lead: driver?.lead ?? lead)
        wordLines = controller.followLines(ofOffsets: offsets) ?? []
        if let old = driver, let word = old.word, let origin = audioOrigin {
            made.heard(word: word, confidence: old.confidence, heardAt: origin + fedSeconds)
        }
        driver = made
        driverMaxOffset = controller.engine.maxOffset
    }

    /// Hands the listener what arrived since the last tick: the file's due samples, or
    /// the capture ring's new periods.
    private func feed(_ listener: VoiceListener, now: Double) {
        if var playing = file {
            let due = min(playing.samples.count, Int((now - playing.startedAt) * Double(playing.rate)))
            if due > playing.next {
                give(listener, Array(playing.samples[playing.next..<due]), rate: playing.rate,
                     startingAt: playing.startedAt + Double(playing.next) / Double(playing.rate))
                playing.next = due
            }
            file = due >= playing.samples.count ? nil : playing
            if file == nil { KioskLog.info("voice follow: the WAV file has been heard to its end") }
            // The room microphone's pieces meanwhile are not heard later.
            nextCaptureFrame = captureRing?.latest.map { $0.firstFrame + Int64($0.samples.count) }
            return
        }
        guard let ring = captureRing else { return }
        let read = ring.read(from: nextCaptureFrame ?? 0)
        for period in read.periods {
            give(listener, period.samples, rate: period.sampleRate, startingAt: period.time)
            nextCaptureFrame = period.firstFrame + Int64(period.samples.count)
        }
    }

    private func give(_ listener: VoiceListener, _ samples: [Int16], rate: Int, startingAt time: Double) {
        guard !samples.isEmpty, rate > 0 else { return }
        audioOrigin = time - fedSeconds
        fedSeconds += Double(samples.count) / Double(rate)
        listener.feed(samples, rate: rate)
    }
}

/// Carries the follow into mailbox work; touched only on the loop, where that work runs.
private final class FollowHandle: @unchecked Sendable {
    weak var follow: VoiceFollow?
}
