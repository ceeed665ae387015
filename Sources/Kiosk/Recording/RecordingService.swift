import Durable
import Foundation
import Media
import Stage

/// Takes on the kiosk: one `Recorder` at a time fed by the same capture as the
/// previews (camera frames through `tap`, on the capture thread; the microphone
/// pumped from the ALSA capture ring on the loop every `pumpInterval`). Lives on the
/// loop; the blocking parts (closing a file, waiting for the encoder) run on a
/// thread of their own and come back through `post`, so no display ever waits.
///
/// A take that cannot be trusted ends with a message and a retry instead of a
/// misleading file: frames dropped by writer pressure, or a stream that stopped
/// (camera or microphone gone), discard it. A full disk or a write error keeps it,
/// closed and playable. Every start and callback carries a generation id; one of a
/// take already over changes nothing (game attempts come through `KioskGameRecording`).
final class RecordingService {
    struct Settings: Sendable, Equatable {
        var enabled = true
        var folder: String
        var recorder = RecorderSettings()
        var audio = true
        var retentionDays = 7
        var countdown = 3
    }

    enum Phase: String { case idle, recording, finishing }

    private struct Current {
        let generation: Int
        let take: RecordingTake
        let recorder: Recorder
        let origin: Double
        var nextAudioFrame: Int64?
        var droppedFrames = 0
        var ending = false
        var extra: [String: String] = [:]
    }

    let settings: Settings
    let tap = RecordingTap()
    /// The room microphone, when one is configured and delivering.
    var audioRing: AudioCaptureRing?
    /// Why there is no microphone when `audioRing` is nil, in the operator's words.
    var noMicrophone = "no microphone is configured ([audio] input is empty)"
    /// On the loop, once per take, when it has ended (its file closed or removed).
    var onEnded: ((RecordingOutcome) -> Void)?
    /// On the loop after each pump of the running take (every `pumpInterval`), with its
    /// generation: a game attempt reads `accepted` here.
    var onPumped: ((Int) -> Void)?
    private(set) var lastOutcome: RecordingOutcome?
    static let pumpInterval = 0.1

    private let clock: () -> Double
    private let wallClock: () -> Date
    let post: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let schedule: (Double, @escaping () -> Void) -> Void
    private let freeSpace: @Sendable (String) -> UInt64?
    private let handle = LoopBound<RecordingService>()
    private var current: Current?
    private var generation = 0

    init(settings: Settings, clock: @escaping () -> Double, wallClock: @escaping () -> Date = Date.init,
         post: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
         schedule: @escaping (Double, @escaping () -> Void) -> Void,
         freeSpace: @escaping @Sendable (String) -> UInt64? = FreeSpace.available) {
        self.settings = settings
        self.clock = clock
        self.wallClock = wallClock
        self.post = post
        self.schedule = schedule
        self.freeSpace = freeSpace
        stored = StoredClips(folder: settings.folder, retentionDays: settings.retentionDays, post: post)
        handle.value = self
        stored.recording = { [unowned self] in currentMediaPath }
    }

    var phase: Phase {
        guard let current else { return .idle }
        return current.ending ? .finishing : .recording
    }

    var currentGeneration: Int? { current?.generation }

    /// The file the running take is written to (retention and delete leave it alone).
    var currentMediaPath: String? { current?.recorder.path }

    /// What was recorded: the folder's clips, their leases and exports.
    let stored: StoredClips

    /// Why a take started now would have no sound, in words; nil while the microphone
    /// delivers (a period within the last second).
    var soundProblem: String? {
        guard settings.audio else { return "sound recording is off ([recording] audio = false)" }
        guard let ring = audioRing else { return noMicrophone }
        guard let latest = ring.latest, latest.endTime > clock() - 1 else {
            return "the microphone is delivering no sound"
        }
        return nil
    }

    /// Starts a take with `video` (the format of the frames the camera delivers), time
    /// zero of the file at `origin` (now when not given; a game attempt gives its
    /// timeline's), and sound unless `sound` is false (a game's picture-only choice).
    /// Returns its generation id.
    func start(_ take: RecordingTake, video: VideoTrackFormat?, cameraState: String = "no picture",
               origin givenOrigin: Double? = nil, sound: Bool = true) throws(RecordingError) -> Int {
        guard settings.enabled else { throw .disabled }
        if let current { throw .busy(generation: current.generation) }
        guard let video else { throw .noCamera(cameraState) }
        do {
            try AtomicFile.createOwnerOnlyFolder(settings.folder)
        } catch {
            throw .folder(path: settings.folder, reason: error.reason)
        }
        generation += 1
        let id = generation
        let origin = givenOrigin ?? clock()
        var take = take
        let microphone = sound && soundProblem == nil ? audioRing?.latest : nil
        let audio = microphone.map { AudioTrackFormat(sampleRate: $0.sampleRate, channels: 1) }
        // The JSON says when and why a file has no sound, whatever the reason.
        if audio == nil { take.annotations["audio"] = "none: " + (sound ? soundProblem ?? "no microphone" : "picture only") }
        let handle = handle
        let post = post
        let recorder: Recorder
        do {
            recorder = try Recorder(folder: settings.folder, name: RecordingName.make(kind: take.kind, date: wallClock(),
                                                                                    generation: id),
                                    video: video, audio: audio, origin: origin, settings: settings.recorder,
                                    freeSpace: freeSpace, onEvents: { post { handle.value?.collect(generation: id) } })
        } catch {
            throw .recorder(error)
        }
        current = Current(generation: id, take: take, recorder: recorder, origin: origin,
                          nextAudioFrame: microphone?.firstFrame)
        tap.attach(recorder)
        scheduleTick(generation: id)
        KioskLog.notice("recording \(id): \(take.kind.rawValue) take into \(recorder.path)")
        return id
    }

    /// Ends the take and keeps its file (Stop); `annotations` join the take's own
    /// in the metadata (what is only known at the end, such as where reading stopped).
    func finish(generation id: Int, annotations: [String: String] = [:]) throws(RecordingError) {
        guard var current, current.generation == id, !current.ending else { throw .notCurrent(generation: id) }
        current.extra = annotations
        self.current = current
        end(keep: true, message: nil, retry: false)
    }

    /// Ends the take and removes its file (an interrupted game attempt).
    func cancel(generation id: Int) throws(RecordingError) {
        guard let current, current.generation == id, !current.ending else { throw .notCurrent(generation: id) }
        end(keep: false, message: nil, retry: true)
    }

    /// How far the running take's recorder has accepted each stream (CLOCK_MONOTONIC),
    /// and whether it records sound at all.
    func accepted(generation id: Int) -> (audio: Double?, video: Double?, hasAudio: Bool)? {
        guard let current, current.generation == id, !current.ending else { return nil }
        return (current.recorder.accepted(.audio), current.recorder.accepted(.video), current.nextAudioFrame != nil)
    }

    /// The camera went away or stopped: a take cannot go on without pictures.
    func cameraLost(_ reason: String) {
        guard let current, !current.ending else { return }
        end(keep: false, message: "Recording ended: the camera is gone (\(reason)). The take was discarded; "
            + "press Record to try again.", retry: true)
    }

    /// The kiosk is stopping (SIGTERM): the take is closed here and now, playable,
    /// with a note in its JSON; waiting is fine, the displays are going away. A game
    /// attempt cut off is void (the game says so after the restart): its file goes.
    func finishForShutdown() {
        guard let current, !current.ending else { return }
        tap.attach(nil)
        if current.take.kind == .game {
            current.recorder.cancel()
            KioskLog.notice("recording \(current.generation): game attempt cut off by the stop, removed")
            self.current = nil
            return
        }
        pumpAudio()
        var annotations = current.take.annotations.merging(current.extra) { $1 }
        annotations["kind"] = current.take.kind.rawValue
        annotations["stop_message"] = "the kiosk was stopped during the take"
        do {
            let result = try current.recorder.finish(annotations: annotations)
            KioskLog.notice("recording \(current.generation): saved \(result.path) at shutdown")
        } catch {
            current.recorder.cancel()
            KioskLog.warning("recording \(current.generation): could not be closed at shutdown: \(error)")
        }
        self.current = nil
    }

    // MARK: while recording

    private func scheduleTick(generation id: Int) {
        schedule(clock() + Self.pumpInterval) { [weak self] in self?.tick(generation: id) }
    }

    private func tick(generation id: Int) {
        guard let current, current.generation == id, !current.ending else { return }
        pumpAudio()
        collect(generation: id)
        if self.current?.generation == id, self.current?.ending == false {
            onPumped?(id)
            scheduleTick(generation: id)
        }
    }

    /// Moves what the microphone captured since the last pump into the recorder.
    private func pumpAudio() {
        guard let ring = audioRing, let from = current?.nextAudioFrame, let recorder = current?.recorder else { return }
        let read = ring.read(from: from)
        if read.missedFrames > 0 {
            return end(keep: false, message: "Recording ended: the microphone's sound was lost before it was saved. "
                       + "The take was discarded; press Record to try again.", retry: true)
        }
        for chunk in Self.chunks(read.periods) { recorder.append(chunk) }
        if let last = read.periods.last { current?.nextAudioFrame = last.firstFrame + Int64(last.samples.count) }
    }

    /// Contiguous capture periods joined into chunks of up to `chunkSeconds`, each
    /// stamped with its first period's time: the recorder's queue bounds chunks, so a
    /// pump that comes late (a busy loop) must not fill it with 10 ms periods when the
    /// encoder itself keeps up. A gap in the frames starts a new chunk.
    static let chunkSeconds = 0.1

    static func chunks(_ periods: [CapturedPeriod]) -> [RecorderAudioChunk] {
        var chunks: [RecorderAudioChunk] = []
        var samples: [Int16] = []
        var start: CapturedPeriod?
        var next: Int64 = 0
        for period in periods {
            if let first = start, period.firstFrame != next
                || Double(samples.count + period.samples.count) > chunkSeconds * Double(first.sampleRate) {
                chunks.append(RecorderAudioChunk(samples: samples, timestamp: first.time))
                samples.removeAll(keepingCapacity: true)
                start = nil
            }
            if start == nil { start = period }
            samples += period.samples
            next = period.firstFrame + Int64(period.samples.count)
        }
        if let first = start { chunks.append(RecorderAudioChunk(samples: samples, timestamp: first.time)) }
        return chunks
    }

    fileprivate func collect(generation id: Int) {
        guard let current, current.generation == id, !current.ending else { return }
        for event in current.recorder.takeEvents(now: clock()) {
            guard self.current?.ending == false else { return }
            handle(event)
        }
    }

    private func handle(_ event: RecorderEvent) {
        switch event {
        case let .writerPressure(pressure):
            current?.droppedFrames = pressure.droppedFrames
            guard pressure.droppedFrames > 0 || pressure.droppedAudioChunks > 0 else { return }
            end(keep: false, message: "Recording ended: the recorder fell behind and lost \(pressure.droppedFrames) "
                + "frames and \(pressure.droppedAudioChunks) sound chunks. The take was discarded; press Record to "
                + "try again (a faster [recording] preset or a smaller size helps).", retry: true)
        case let .streamStalled(stream, _, silent):
            let what = stream == .video ? "the camera delivered no picture" : "the microphone delivered no sound"
            end(keep: false, message: "Recording ended: \(what) for \(String(format: "%.1f", silent)) s. The take was "
                + "discarded; check the \(stream == .video ? "camera" : "microphone") and press Record to try again.",
                retry: true, stalled: stream)
        case let .stopped(stop):
            end(keep: true, message: "\(stop.description). The take up to here is saved.", retry: false)
        }
    }

    // MARK: ending

    /// Detaches the recorder from the capture at once, then closes or removes the file
    /// off the loop; the outcome comes back through `post`.
    private func end(keep: Bool, message: String?, retry: Bool, stalled: RecordedStream? = nil) {
        guard var ending = current, !ending.ending else { return }
        tap.attach(nil)
        if keep { pumpAudio() }
        ending.ending = true
        current = ending
        let recorder = ending.recorder
        var annotations = ending.take.annotations.merging(ending.extra) { $1 }
        annotations["kind"] = ending.take.kind.rawValue
        if let message { annotations["stop_message"] = message }
        let id = ending.generation
        let kind = ending.take.kind
        let metadata = annotations
        let handle = handle
        let post = post
        let thread = Thread {
            var outcome = RecordingOutcome(generation: id, kind: kind, result: nil, message: message, retry: retry,
                                           stalled: stalled)
            if keep {
                do {
                    outcome.result = try recorder.finish(annotations: metadata)
                } catch {
                    recorder.cancel()
                    outcome.message = "Recording failed: \(error). The take was discarded; press Record to try again."
                    outcome.retry = true
                }
            } else {
                recorder.cancel()
            }
            let done = outcome
            post { handle.value?.ended(done) }
        }
        thread.name = "rig-recording-end"
        thread.start()
    }

    fileprivate func ended(_ outcome: RecordingOutcome) {
        guard current?.generation == outcome.generation else { return }
        current = nil
        lastOutcome = outcome
        if let message = outcome.message { KioskLog.warning("recording \(outcome.generation): \(message)") }
        if let result = outcome.result {
            KioskLog.notice("recording \(outcome.generation): saved \(result.path) "
                            + "(\(String(format: "%.1f", result.duration)) s, \(result.videoFrames) frames)")
        }
        onEnded?(outcome)
    }

    // MARK: status

    /// `recording` in `rig ctl status`.
    var statusJSON: JSONValue {
        var fields: [String: JSONValue] = [
            "state": .string(phase.rawValue),
            "folder": .string(settings.folder),
            "free_mb": freeSpace(settings.folder).map { .int(Int($0 / 1_048_576)) } ?? .null,
            "countdown": .int(settings.countdown),
        ]
        if let current {
            fields["generation"] = .int(current.generation)
            fields["kind"] = .string(current.take.kind.rawValue)
            fields["file"] = .string(current.recorder.path)
            fields["duration"] = .number(max(0, clock() - current.origin))
            fields["dropped_frames"] = .int(current.droppedFrames)
        }
        if let last = lastOutcome {
            var ended: [String: JSONValue] = ["generation": .int(last.generation), "retry": .bool(last.retry),
                                              "message": .optional(last.message),
                                              "file": .optional(last.result?.path)]
            if let result = last.result {
                ended["duration"] = .number(result.duration)
                ended["frames"] = .int(result.videoFrames)
                ended["dropped_frames"] = .int(result.droppedFrames)
            }
            fields["last"] = .object(ended)
        }
        if !stored.exports.isEmpty {
            fields["exports"] = .array(stored.exports.values.sorted { $0.id < $1.id }.map(\.json))
        }
        return .object(fields)
    }
}
