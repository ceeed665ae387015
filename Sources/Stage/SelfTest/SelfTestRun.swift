import Foundation

/// One self-test, step by step on the stage's loop: the displays' flips measured while
/// the cards move, the camera's preview on the talent's display (its frames and their
/// capture-to-flip latency), the talent's taps on the outer card, a tone played and
/// heard back and a line spoken, a trial encode, then the disk, the clock and the
/// network. Each finished step is reported as it comes (`onStep`).
package final class SelfTestRun {
    package struct Options: Equatable, Sendable {
        package var flipSeconds = 5.0
        /// The camera's preview on the talent's display: its rate and frame-to-flip latency.
        package var cameraSeconds = 5.0
        /// How long the talent's display waits for taps; 0 skips the touch step.
        package var touchSeconds = 20.0
        package var taps = 5
        package var listenSeconds = 1.5
        package var speechSeconds = 10.0
        /// Each trial encode's length; 0 skips the recording check.
        package var recorderSeconds = 5.0

        package init() {}
    }

    package enum Phase: Equatable { case displays, camera, touch, sound, recording, finished }

    /// The network remote's pairing: opens a one-time code (true when one opened), and
    /// its QR code while it is open (nil once it ran out or was used).
    package struct Pairing {
        package var open: () -> Bool
        package var qr: () -> QRMatrix?
        package init(open: @escaping () -> Bool, qr: @escaping () -> QRMatrix?) {
            self.open = open
            self.qr = qr
        }
        package static var none: Pairing { Pairing(open: { false }, qr: { nil }) }
    }

    package let options: Options
    package private(set) var phase = Phase.displays
    package private(set) var report: SelfTestReport {
        didSet { stepLines = Self.cardLines(report) }
    }
    /// The inner card's list, made when the report changes (the card is asked for it on
    /// every frame while the bar moves).
    private var stepLines: [String] = []
    /// A step finished (it is already in `report`).
    package var onStep: (SelfTestStep) -> Void = { _ in }
    package var onFinish: (SelfTestReport) -> Void = { _ in }
    /// What the displays show changed.
    package var onChange: () -> Void = {}

    private let port: SelfTestPort
    private let sound: SoundOutputPort
    private let outerTouchscreen: () -> Bool
    /// What the display side last said of a display (its pacer's missed-vblank count).
    private let displayStatus: (DisplayRole) -> DisplayStatus?
    private let pairing: Pairing
    private var missedAtStart: [DisplayRole: UInt64] = [:]
    private let now: () -> Double
    private let schedule: (Double, @escaping () -> Void) -> Void

    private var flips: [DisplayRole: [FlipStamp]] = [:]
    private var windowStart = 0.0
    private var cameraFrames = 0
    private var cameraStart = 0.0
    private var captureCPUAtStart: Double?
    /// From each camera frame's capture to the flip of the outer frame showing it.
    private var cameraLatencies: [Double] = []
    private var taps = 0
    private var innerTouches = 0
    private var tapTimes: [Double] = []
    private var latencies: [Double] = []
    private var touchStart = 0.0
    private var cancelled = false

    package init(port: SelfTestPort, sound: SoundOutputPort, outerTouchscreen: @escaping () -> Bool,
                 displayStatus: @escaping (DisplayRole) -> DisplayStatus?, pairing: Pairing = .none, options: Options,
                 started: String, now: @escaping () -> Double, schedule: @escaping (Double, @escaping () -> Void) -> Void) {
        self.port = port
        self.sound = sound
        self.outerTouchscreen = outerTouchscreen
        self.displayStatus = displayStatus
        self.pairing = pairing
        self.options = options
        self.now = now
        self.schedule = schedule
        report = SelfTestReport(started: started)
    }

    package func start() {
        windowStart = now()
        for role in DisplayRole.allCases { missedAtStart[role] = displayStatus(role)?.missedVblanks ?? 0 }
        report.running = "Measuring the displays"
        onChange()
        schedule(windowStart + options.flipSeconds) { [weak self] in self?.displaysMeasured() }
    }

    /// Stops where it is (Escape at the console): what ran is kept, marked cancelled.
    package func cancel() {
        guard phase != .finished else { return }
        cancelled = true
        finish()
    }

    // MARK: what the loop reports

    package func flipped(_ role: DisplayRole, _ stamp: FlipStamp, tapsShown: Int?) {
        if phase == .displays, stamp.time >= windowStart { flips[role, default: []].append(stamp) }
        if role == .outer, let shown = tapsShown {
            while latencies.count < min(shown, tapTimes.count) { latencies.append(stamp.time - tapTimes[latencies.count]) }
        }
    }

    package func cameraFrameArrived() { if phase == .camera { cameraFrames += 1 } }

    /// An outer frame showing the camera frame captured at `captured` reached the glass.
    package func cameraFrameShown(captured: Double, at flip: Double) {
        if phase == .camera { cameraLatencies.append(flip - captured) }
    }

    /// The talent's display shows the camera's preview as the kiosk draws it (mirrored
    /// as configured), not a card, while the camera is measured.
    package var showsCamera: Bool { phase == .camera }

    package func outerTapped(at time: Double) {
        guard phase == .touch else { return }
        taps += 1
        tapTimes.append(time)
        onChange()
        if taps >= options.taps { schedule(now() + 0.25) { [weak self] in self?.touchDone() } }
    }

    /// As many touches on the inner display as taps asked for, and none on the outer:
    /// the verdict (the touchscreen is on the wrong head) is known, so the person who
    /// tapped does not wait out the step.
    package func innerTouched() {
        guard phase == .touch else { return }
        innerTouches += 1
        onChange()
        if taps == 0, innerTouches == options.taps { schedule(now() + 0.25) { [weak self] in self?.touchDone() } }
    }

    /// The bar moves (every vblank must flip) while the displays are measured.
    package var animates: Bool { phase == .displays }

    /// The card for `role`; nil once the self-test is over (the inner keeps its results
    /// until the operator closes them: `SelfTestRun` is then dropped by the stage).
    package func card(_ role: DisplayRole) -> SelfTestCardShown? {
        switch phase {
        case .displays:
            return SelfTestCardShown(prompt: "Self-test: measuring the displays…", steps: stepLines, moving: true)
        case .camera:
            return role == .outer ? nil : SelfTestCardShown(prompt: "Self-test: the camera's preview is on the talent's display", steps: stepLines)
        case .touch:
            return SelfTestCardShown(prompt: role == .outer ? "Tap the square, \(options.taps) times" : "Tap the square on the talent's display, \(options.taps) times",
                                     taps: taps, steps: stepLines, tapTarget: true)
        case .sound:
            return SelfTestCardShown(prompt: "Self-test: sound (a tone, then a spoken line)", steps: stepLines)
        case .recording:
            return SelfTestCardShown(prompt: "Self-test: a trial encode (nothing of the camera is kept)", steps: stepLines)
        case .finished:
            guard role == .inner else { return nil }
            var card = SelfTestCardShown(prompt: report.summary + " Any key or a touch closes this.", steps: stepLines)
            card.pairingQR = pairing.qr()
            return card
        }
    }

    /// The inner card's list: a line per check, and for a warning or a problem what was
    /// found first and the fix (every figure is in `rig selftest`'s output and the copy).
    private static func cardLines(_ report: SelfTestReport) -> [String] {
        report.steps.flatMap { step -> [String] in
            let head = step.text[0]
            guard step.verdict != .ok else { return [head] }
            let finding = step.finding ?? step.lines.first
            return [head] + (finding.map { ["        \($0)"] } ?? []) + (step.fix.map { ["        fix: \($0)"] } ?? [])
        } + (report.running.map { ["…       \($0)"] } ?? [])
    }

    // MARK: steps

    private func add(_ step: SelfTestStep) {
        report.steps.append(step)
        onStep(step)
        onChange()
    }

    private func displaysMeasured() {
        guard phase == .displays, !cancelled else { return }
        let seconds = now() - windowStart
        for role in [DisplayRole.inner, .outer] {
            let missed = (displayStatus(role)?.missedVblanks ?? 0) &- (missedAtStart[role] ?? 0)
            add(DisplayCheck(role: role, facts: port.display(role), flips: flips[role] ?? [], seconds: seconds,
                             pacerMissed: Int(clamping: missed)).step)
        }
        guard port.camera != nil else {
            add(CameraCheck(facts: nil, frames: 0, seconds: 0).step)
            return touchStep()
        }
        phase = .camera
        cameraStart = now()
        captureCPUAtStart = port.cameraCaptureCPU
        report.running = "The camera's preview on the talent's display"
        onChange()
        schedule(cameraStart + options.cameraSeconds) { [weak self] in self?.cameraMeasured() }
    }

    private func cameraMeasured() {
        guard phase == .camera, !cancelled else { return }
        var check = CameraCheck(facts: port.camera, frames: cameraFrames, seconds: now() - cameraStart,
                                latencies: cameraLatencies)
        if let start = captureCPUAtStart, let end = port.cameraCaptureCPU, cameraFrames > 0 {
            check.captureCPUPerFrame = (end - start) / Double(cameraFrames)
        }
        add(check.step)
        touchStep()
    }

    private func touchStep() {
        guard options.touchSeconds > 0 else {
            add(SelfTestStep(id: "touch", title: "Touch (talent's tap)", verdict: .warning,
                             lines: ["not tested: no time was given for taps (--touch-seconds 0)"],
                             fix: "Run the self-test again and tap the square on the talent's display when it asks."))
            return soundStep()
        }
        phase = .touch
        touchStart = now()
        report.running = "Waiting for taps on the talent's display"
        onChange()
        schedule(touchStart + options.touchSeconds) { [weak self] in self?.touchDone() }
    }

    private func touchDone() {
        guard phase == .touch, !cancelled else { return }
        var check = TouchCheck(outerTouchscreen: outerTouchscreen(), outerTaps: taps, innerTouches: innerTouches,
                               latencies: latencies, wanted: options.taps, seconds: now() - touchStart)
        check.name = port.outerTouchscreenName
        add(check.step)
        soundStep()
    }

    private func soundStep() {
        phase = .sound
        report.running = "Playing a tone and listening for it"
        onChange()
        var facts = port.sound
        if facts.outputProblem == nil, sound.sampleRate == nil { facts.outputProblem = sound.unavailableReason ?? "no sound output" }
        guard facts.outputProblem == nil, let rate = sound.sampleRate else {
            return soundDone(SoundCheck(facts: facts, tone: nil, found: nil, speech: nil))
        }
        let generation = sound.newGeneration()
        var reported = false
        // A card that never starts playing (a stuck device) must not hold the test.
        schedule(now() + options.listenSeconds + 5) { [weak self] in
            guard let self, !reported, phase == .sound, !cancelled else { return }
            reported = true
            sound.cancel(generation: generation)
            speak(SoundCheck(facts: facts, tone: .failure(SelfTestFailure("the tone did not start within 5 s")), found: nil,
                             speech: nil))
        }
        let playing = sound.stream(SelfTestTone.samples(rate: rate), rate: rate, generation: generation, slipped: { _ in }) {
            [weak self] report in
            guard let self, !reported else { return }
            switch report {
            case let .started(time):
                reported = true
                schedule(time + options.listenSeconds) { [weak self] in self?.listened(facts, toneAt: time) }
            case let .failed(reason):
                reported = true
                speak(SoundCheck(facts: facts, tone: .failure(SelfTestFailure(reason)), found: nil, speech: nil))
            case .ended: break
            }
        }
        if let playing { sound.finish(playing) }
    }

    private func listened(_ facts: SoundFacts, toneAt time: Double) {
        guard phase == .sound, !cancelled else { return }
        let found = port.heard(since: time - 0.2).flatMap { SelfTestTone.find(in: $0, playedAt: time) }
        speak(SoundCheck(facts: facts, tone: .success(time), found: found, speech: nil))
    }

    private func speak(_ check: SoundCheck) {
        report.running = "espeak-ng speaks a line"
        onChange()
        var done = false
        let spoken = { [weak self] (speech: SoundReport?) in
            guard let self, !done, !cancelled else { return }
            done = true
            var check = check
            check.speech = speech
            soundDone(check)
        }
        sound.speak("This is the rig's self test. Sound is working.", generation: sound.newGeneration()) { report in
            switch report {
            case .started: break
            case .ended, .failed: spoken(report)
            }
        }
        schedule(now() + options.speechSeconds) { spoken(nil) }
    }

    private func soundDone(_ check: SoundCheck) {
        guard phase == .sound, !cancelled else { return }
        add(check.step)
        guard options.recorderSeconds > 0 else { return lastSteps() }
        phase = .recording
        report.running = "A trial encode at [recording]'s preset"
        onChange()
        port.recorderTrial(seconds: options.recorderSeconds) { [weak self] check in
            guard let self, phase == .recording, !cancelled else { return }
            add(check.step)
            lastSteps()
        }
    }

    private func lastSteps() {
        report.running = "Disk, clock and network"
        onChange()
        port.storage { [weak self] facts in
            guard let self, !cancelled, phase != .finished else { return }
            add(StorageCheck(facts: facts).step)
            clockAndNetwork()
        }
    }

    private func clockAndNetwork() {
        add(port.clock.step)
        var network = port.network
        // The owner at the rig pairs a phone now: a one-time code, its QR on the results.
        // Neither the code nor its address goes into the report or the journal.
        if network.enabled, network.address != nil { network.pairingOpened = pairing.open() }
        add(network.step)
        finish()
    }

    private func finish() {
        phase = .finished
        report.running = cancelled ? "cancelled" : nil
        report.finished = true
        onChange()
        onFinish(report)
    }
}
