import Foundation
import Stage
import Media

/// Sound as the event loop sees it: owns the output and input threads, takes what
/// they report when the mailbox says so, keeps state, counters and the last playback
/// for `status`, and tells each caller what became of its clip, tagged with the
/// caller's generation id (an attempt of the game), so a report for an abandoned
/// attempt can be told apart and ignored.
final class AudioService {
    enum Role: String { case output, input }

    /// What became of a clip the caller asked to play; times on CLOCK_MONOTONIC.
    enum Report: Equatable {
        case started(generation: Int, time: Double)
        case ended(generation: Int, time: Double)
        case failed(generation: Int, reason: String)
    }

    struct Playback: Equatable {
        let id: Int
        let generation: Int
        let duration: Double
        let text: String?
        let requested: Double
        var handedOver: Double?
        var start: Double?
        var end: Double?
        var failure: String?
    }

    let config: RigConfig.Audio
    private(set) var outputState: AudioDeviceState?
    private(set) var inputState: AudioDeviceState?
    private(set) var underruns = 0
    private(set) var overruns = 0
    private(set) var lastPlayback: Playback?
    private(set) var played = 0
    private(set) var failed = 0
    /// Called on the loop for each device state change.
    var onStateChange: ((Role, AudioDeviceState) -> Void)?
    private var lastGeneration = 0

    let playback: AudioPlayback?
    let capture: AudioCapture?
    private var inFlight: [Int: (playback: Playback, report: (Report) -> Void)] = [:]
    /// Streams' slip callbacks, by playback id.
    private var slipped: [Int: (Double) -> Void] = [:]
    private var nextID = 0
    private let mailbox: LoopMailbox
    private let clock: () -> Double

    init(config: RigConfig.Audio, mailbox: LoopMailbox, clock: @escaping () -> Double = MonotonicTime.now) throws {
        self.config = config
        self.mailbox = mailbox
        self.clock = clock
        let handle = LoopBound<AudioService>()
        if config.output.isEmpty {
            playback = nil
        } else {
            let events = AudioEvents { [mailbox] in mailbox.post { handle.value?.collect(.output) } }
            playback = try AudioPlayback(settings: AudioPlayback.Settings(device: config.output, volume: Float(config.volume) / 100),
                                         events: events)
            outputState = .starting
        }
        if config.input.isEmpty {
            capture = nil
        } else {
            let events = AudioEvents { [mailbox] in mailbox.post { handle.value?.collect(.input) } }
            capture = try AudioCapture(settings: AudioCapture.Settings(device: config.input), events: events)
            inputState = .starting
        }
        handle.value = self
    }

    deinit { stop() }

    func start() {
        playback?.start()
        capture?.start()
    }

    /// Stops both threads (on shutdown); false if one did not finish in time.
    @discardableResult
    func stop() -> Bool {
        let out = playback?.stop() ?? true
        let input = capture?.stop() ?? true
        return out && input
    }

    /// The room microphone's recent periods, for the recorder.
    var captureRing: AudioCaptureRing? { capture?.ring }

    /// Plays a prepared clip; `report` runs on the loop with its start and end (or
    /// why it failed). Returns the playback id, nil with no output configured (then
    /// `report` has already been told).
    @discardableResult
    func play(_ sound: PreparedSound, generation: Int, text: String? = nil,
              report: @escaping (Report) -> Void = { _ in }) -> Int? {
        guard let playback else {
            report(.failed(generation: generation, reason: "no sound output configured ([audio] output is empty)"))
            return nil
        }
        nextID += 1
        let entry = Playback(id: nextID, generation: generation, duration: sound.duration, text: text, requested: clock())
        inFlight[nextID] = (entry, report)
        lastPlayback = entry
        playback.play(id: nextID, sound: sound)
        return nextID
    }

    /// A stream of sound whose samples keep coming (a replay's): `first` now, then
    /// `append`, then `finish`; `report` as for `play`; `slipped` with the seconds the
    /// stream went on late after it ran dry (samples handed over after their time).
    /// Returns the playback id.
    @discardableResult
    func stream(_ first: PreparedSound, generation: Int, text: String? = nil,
                slipped: @escaping (Double) -> Void = { _ in },
                report: @escaping (Report) -> Void = { _ in }) -> Int? {
        guard let playback else {
            report(.failed(generation: generation, reason: "no sound output configured ([audio] output is empty)"))
            return nil
        }
        nextID += 1
        let entry = Playback(id: nextID, generation: generation, duration: first.duration, text: text, requested: clock())
        inFlight[nextID] = (entry, report)
        self.slipped[nextID] = slipped
        lastPlayback = entry
        playback.stream(id: nextID, sound: first)
        return nextID
    }

    func append(_ more: PreparedSound, to id: Int) {
        guard inFlight[id] != nil else { return }
        playback?.append(id: id, sound: more)
    }

    func finish(_ id: Int) {
        guard inFlight[id] != nil else { return }
        playback?.finish(id: id)
    }

    /// A prepared speech clip (the game's instruction, synthesized ahead of Send).
    @discardableResult
    func play(_ clip: SpeechClip, generation: Int, report: @escaping (Report) -> Void = { _ in }) -> Int? {
        play(PreparedSound(clip), generation: generation, text: clip.text, report: report)
    }

    /// Synthesizes on the speech thread, then plays; `report` is told about both
    /// failures (bad text, unknown voice) and the playback.
    func speak(_ text: String, voice: String? = nil, rate: Int? = nil, generation: Int,
               synthesized: @escaping (SpeechClip) -> Void = { _ in },
               report: @escaping (Report) -> Void = { _ in }) {
        let handle = LoopBound(self)
        let callbacks = LoopCarried((synthesized, report))
        let mailbox = mailbox
        let deviceRate = playback?.settings.rate
        SpeechSynthesizer.shared.synthesize(text, voice: voice ?? config.voice, rate: rate ?? config.rate) { result in
            // Still on the speech thread: converted to the device's rate here, so
            // neither the loop nor the playback thread spends time on it.
            let prepared = result.map { clip in deviceRate.flatMap { try? clip.resampled(to: $0) } ?? clip }
            mailbox.post {
                handle.value?.synthesized(prepared, generation: generation, synthesized: callbacks.value.0,
                                          report: callbacks.value.1)
            }
        }
    }

    fileprivate func synthesized(_ result: Result<SpeechClip, SpeechError>, generation: Int,
                                 synthesized: (SpeechClip) -> Void, report: @escaping (Report) -> Void) {
        switch result {
        case let .success(clip):
            synthesized(clip)
            play(PreparedSound(clip), generation: generation, text: clip.text, report: report)
        case let .failure(error):
            failed += 1
            report(.failed(generation: generation, reason: error.description))
        }
    }

    /// A fresh generation id for callers with no attempt of their own (`rig ctl speak`).
    func newGeneration() -> Int {
        lastGeneration += 1
        return lastGeneration
    }

    /// Stops every clip of `generation` (an abandoned attempt).
    func cancel(generation: Int) {
        for (id, entry) in inFlight where entry.playback.generation == generation { playback?.cancel(id: id) }
    }

    fileprivate func collect(_ role: Role) {
        guard let events = role == .output ? playback?.events : capture?.events else { return }
        let batch = events.take()
        for state in batch.states {
            if role == .output { outputState = state } else { inputState = state }
            onStateChange?(role, state)
        }
        if role == .output { underruns += batch.xruns } else { overruns += batch.xruns }
        for (id, time) in batch.handedOver { update(id) { $0.handedOver = time } }
        for report in batch.playback { deliver(report) }
    }

    private func deliver(_ report: PlaybackReport) {
        guard let entry = inFlight[report.id] else { return }
        let generation = entry.playback.generation
        switch report {
        case let .started(id, time):
            update(id) { $0.start = time }
            entry.report(.started(generation: generation, time: time))
        case let .ended(id, time):
            update(id) { $0.end = time }
            inFlight[id] = nil
            played += 1
            entry.report(.ended(generation: generation, time: time))
        case let .failed(id, reason):
            update(id) { $0.failure = reason }
            inFlight[id] = nil
            failed += 1
            entry.report(.failed(generation: generation, reason: reason))
        case let .slipped(id, seconds):
            slipped[id]?(seconds)
        }
        if inFlight[report.id] == nil { slipped[report.id] = nil }
    }

    private func update(_ id: Int, _ change: (inout Playback) -> Void) {
        if var entry = inFlight[id] {
            change(&entry.playback)
            inFlight[id] = entry
        }
        if var last = lastPlayback, last.id == id {
            change(&last)
            lastPlayback = last
        }
    }
}
