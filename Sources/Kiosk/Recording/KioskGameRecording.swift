import Foundation
import Game
import Media
import Stage

/// The game's recording port on the rig: each recorded attempt is a take of the one
/// `RecordingService` (the same camera tap and microphone ring as the previews and the
/// prompter's takes), its file's time zero at the game's timeline origin. While it
/// records, what the recorder has accepted of each stream goes back to the game after
/// every pump (`mediaAccepted`), so the game starts the instruction only once 0.75 s
/// of sound and picture are in, and stops only once the tail is. A take that ends by
/// itself (a stalled stream, writer pressure, a full disk, a lost camera) interrupts
/// the attempt, and its media go. Lives on the loop.
final class KioskGameRecording: GameRecordingPort {
    struct Running {
        let generation: UInt64
        let attempt: Int
        /// The service's generation of the take.
        let take: Int
        let origin: Double
        let video: VideoTrackFormat
        var stopping = false
        var reported: [MediaStream: Double] = [:]
        /// Each stream's first accepted time: the game's lead-in counts from the later of
        /// the two, so a camera whose first picture comes late still gets 0.75 s of both.
        var first: [MediaStream: Double] = [:]
    }

    let service: RecordingService
    weak var game: GameController?
    /// The camera's frame layout now, and its state in words for refusals.
    var videoFormat: () -> VideoTrackFormat? = { nil }
    var cameraState: () -> String = { "off" }
    /// The espeak-ng voice the instructions are spoken with (a narrated export made
    /// again after a restart synthesizes with it).
    var voice = SpeechSynthesizer.defaultVoice
    /// The cue's badge for a recording of this size, as the participant saw it in the
    /// export's style (the stage's `CueBadge`, drawn with the kiosk's fonts).
    var badgePicture: (Character, Int, Int) -> OverlayPicture? = { _, _, _ in nil }
    private(set) var running: Running?
    /// The played instruction of the running attempt, then of each clip (by JSON
    /// path), for the narrated export.
    var narrations: [UInt64: SpeechClip] = [:]
    var playedVoices: [String: SpeechClip] = [:]
    /// Metadata of the game's clips by JSON path, as last written.
    var metadata: [String: GameClipMetadata] = [:]
    /// Attempts of the current session whose metadata could not be read (not asked again).
    var unreadable: Set<String> = []
    /// Derived exports running now, by JSON path.
    var exporting: Set<String> = []
    /// Media deleted by the host while leased: removed when the lease is given back.
    var pendingRemovals: Set<String> = []
    let clock: () -> Double
    let schedule: (Double, @escaping () -> Void) -> Void

    init(service: RecordingService, clock: @escaping () -> Double, schedule: @escaping (Double, @escaping () -> Void) -> Void) {
        self.service = service
        self.clock = clock
        self.schedule = schedule
        service.stored.gameMetadata = { [weak self] in self?.metadata[$0] }
    }

    var unavailableReason: String? {
        guard service.settings.enabled else { return RecordingError.disabled.description }
        if let take = service.currentGeneration, take != running?.take { return "a prompter take is being recorded" }
        return nil
    }

    var soundProblem: String? { service.soundProblem }

    // MARK: the game's effects

    func start(generation: UInt64, attempt: Int) {
        if let stale = running { abandon(stale) }
        guard let record = game?.session?.attempts.first(where: { $0.id == attempt }) else {
            return fail(generation, "the attempt is unknown to the recorder")
        }
        let origin = record.timing.recordingOrigin ?? clock()
        guard let video = videoFormat() else { return fail(generation, RecordingError.noCamera(cameraState()).description) }
        let annotations = ["kind": "game", "game": game?.sessionID ?? "", "attempt": String(attempt),
                           "player": record.snapshot.player, "card": record.snapshot.card.id,
                           "rule": record.snapshot.rule.rawValue, "mode": record.snapshot.mode.rawValue]
        do {
            let pictureOnly = record.snapshot.pictureOnly == true
            let take = try service.start(RecordingTake(kind: .game, annotations: annotations), video: video,
                                         cameraState: cameraState(), origin: origin, sound: !pictureOnly)
            // The game waits for sound it was promised: a microphone that fell silent
            // since Send voids the attempt now, never a silent file that claims sound.
            if !pictureOnly, service.accepted(generation: take)?.hasAudio != true {
                try? service.cancel(generation: take)
                return fail(generation, soundProblem ?? "the microphone is delivering no sound")
            }
            running = Running(generation: generation, attempt: attempt, take: take, origin: origin, video: video)
            // The game refuses challenges longer than the bound; this catches a recording
            // that runs on anyway (a stop that never came), so no file grows without end.
            schedule(origin + RecordingTimeline.bound + RecordingTimeline.stallGrace) { [weak self] in
                guard let self, let running, running.take == take, !running.stopping else { return }
                KioskLog.warning("game recording \(take): past the \(Int(RecordingTimeline.bound)) s bound, stopped")
                abandon(running)
                deliver(.recordingFailed(generation: generation,
                                         reason: "the recording ran past its \(Int(RecordingTimeline.bound)) s bound"))
            }
        } catch {
            fail(generation, error.description)
        }
    }

    func stop(generation: UInt64) {
        guard var running, running.generation == generation, !running.stopping else { return }
        running.stopping = true
        self.running = running
        do {
            try service.finish(generation: running.take)
        } catch {
            self.running = nil
            fail(generation, error.description)
        }
    }

    func cancel(generation: UInt64) {
        narrations[generation] = nil
        guard let running, running.generation == generation else { return }
        abandon(running)
    }

    /// Ends a take whose attempt is over without keeping anything; a take already
    /// closing comes back through `ended` and goes there.
    private func abandon(_ stale: Running) {
        running = nil
        try? service.cancel(generation: stale.take)
    }

    // MARK: from the recording service and the speech

    /// The instruction started to play (`KioskGameSpeech.onPlay`).
    func played(generation: UInt64, clip: SpeechClip) {
        guard running?.generation == generation else { return }
        narrations[generation] = clip
    }

    /// After each pump: the recorder's accepted media, to the game. Each stream reports
    /// only its own media: a picture-only file reports no sound, and its game timeline
    /// tracks the picture alone.
    func pumped(take: Int) {
        guard var running, running.take == take, !running.stopping,
              let accepted = service.accepted(generation: take) else { return }
        var times: [(MediaStream, Double?)] = [(.video, accepted.video)]
        if accepted.hasAudio { times.append((.audio, accepted.audio)) }
        for case let (stream, time?) in times where running.first[stream] == nil { running.first[stream] = time }
        // The game measures coverage from the origin; media begins at the later stream's
        // first sample, so what is reported is shifted back by that much (the lead-in and
        // the tail then hold for both streams, at the cost of waiting a little longer).
        guard times.allSatisfy({ running.first[$0.0] != nil }) else {
            self.running = running
            return
        }
        let shift = max(0, (times.compactMap { running.first[$0.0] }.max() ?? running.origin) - running.origin)
        var events: [GameEvent] = []
        for case let (stream, accepted?) in times {
            let time = accepted - shift
            guard time > (running.reported[stream] ?? -.infinity) else { continue }
            running.reported[stream] = time
            events.append(.mediaAccepted(generation: running.generation, stream: stream, upTo: time))
        }
        self.running = running
        for event in events { deliver(event) }
    }

    /// A game take ended: finalized on the game's stop, or by itself (then the attempt
    /// is interrupted), or after the attempt was abandoned (then its file goes).
    func ended(_ outcome: RecordingOutcome) {
        guard let running, running.take == outcome.generation else {
            if let result = outcome.result { removeMedia(jsonPath(of: result.path), keepJSON: false) }
            return
        }
        self.running = nil
        if running.stopping, let result = outcome.result {
            finalized(running, result)
            return
        }
        if let result = outcome.result { removeMedia(jsonPath(of: result.path), keepJSON: false) }
        guard game?.session?.activeGeneration == running.generation else { return }
        if let stream = outcome.stalled {
            deliver(.interrupt(.recordingStalled(stream == .video ? .video : .audio)))
        } else {
            // The service's words, without the prompter's advice ("press Record"): the game offers Retry.
            var reason = (outcome.message ?? "the recording ended").components(separatedBy: ". The take").first ?? ""
            for prefix in ["Recording ended: ", "Recording stopped: "] where reason.hasPrefix(prefix) {
                reason = String(reason.dropFirst(prefix.count))
            }
            deliver(.recordingFailed(generation: running.generation, reason: reason))
        }
    }

    private func finalized(_ running: Running, _ result: RecordingResult) {
        guard let record = game?.session?.attempts.first(where: { $0.id == running.attempt }) else {
            return removeMedia(jsonPath(of: result.path), keepJSON: false)
        }
        let clip = GameClipMetadata(recording: result, attempt: GameClipAttempt(record, game: game?.sessionID ?? "",
                                                                                  recording: result, video: running.video))
        if let voice = narrations.removeValue(forKey: running.generation) {
            playedVoices[jsonPath(of: result.path)] = voice
        }
        write(clip)
        deliver(.recordingFinalized(generation: running.generation, file: result.path))
    }

    // MARK: helpers

    func deliver(_ event: GameEvent) { game?.receive(event) }

    /// Refusals answered on the next loop turn, never inside the effect that caused them.
    private func fail(_ generation: UInt64, _ reason: String) {
        KioskLog.warning("game recording \(generation): \(reason)")
        schedule(clock()) { [weak self] in self?.deliver(.recordingFailed(generation: generation, reason: reason)) }
    }

    func jsonPath(of media: String) -> String {
        (media.hasSuffix(".mp4") ? String(media.dropLast(4)) : media) + ".json"
    }

    func mediaPath(of json: String) -> String { String(json.dropLast(5)) + ".mp4" }

    /// The derived export's path beside the clip.
    func derivedPath(of json: String, kind: DerivedExportStatus.Kind) -> String {
        String(json.dropLast(5)) + "." + kind.rawValue + ".mp4"
    }

    // MARK: the clips' files

    // The game clips' files: metadata following the verdict history, the media of
    // discarded and deleted attempts removed (never under a lease), and the derived
    // export started once the host has judged.

    func discard(attempt: Int) {
        if let running, running.attempt == attempt {
            cancel(generation: running.generation)
        }
        // A file finalized just as the attempt was interrupted.
        for (path, clip) in metadata where clip.attempt.id == attempt && clip.attempt.game == game?.sessionID {
            removeMedia(path, keepJSON: false)
        }
    }

    /// The host deleted the attempt's video: media and derived export go, the JSON with
    /// the result stays.
    func delete(attempt: Int, file: String) {
        let json = jsonPath(of: file)
        removeMedia(json, keepJSON: true)
        guard var clip = metadata[json] ?? GameClipMetadata.read(json) else { return }
        clip.export = nil
        clip.annotations["media"] = "deleted"
        clip.refreshAnnotations()
        write(clip)
    }

    /// What holds the attempt's MP4 or its derived exports now (a replay, an export copy).
    func mediaInUse(_ file: String) -> [String] {
        let json = jsonPath(of: file)
        let files = [mediaPath(of: json), derivedPath(of: json, kind: .cue), derivedPath(of: json, kind: .narrated)]
        return Array(Set(files.flatMap(service.stored.leases.purposes))).sorted()
    }

    /// Removes a clip's MP4 and derived exports (and its JSON unless `keepJSON`). A file
    /// leased to a copy or replay is removed when the lease is given back.
    func removeMedia(_ json: String, keepJSON: Bool) {
        let files = [mediaPath(of: json), derivedPath(of: json, kind: .cue), derivedPath(of: json, kind: .narrated)]
        for file in files where FileManager.default.fileExists(atPath: file) {
            if service.stored.leases.isLeased(file) { removeWhenFree(file) } else { unlink(file) }
        }
        if !keepJSON {
            MetadataWriter.shared.remove(json)
            metadata[json] = nil
        }
    }

    private func removeWhenFree(_ file: String) {
        guard pendingRemovals.insert(file).inserted else { return }
        checkRemoval(of: file)
    }

    /// A method, not a nested function: a nested one captures `self` strongly, so the
    /// timer waiting on a lease kept the port alive despite its `[weak self]`
    /// (AddressSanitizer's leak report in GameMediaDeletionTests).
    private func checkRemoval(of file: String) {
        schedule(clock() + 1) { [weak self] in
            guard let self else { return }
            if service.stored.leases.isLeased(file) { return checkRemoval(of: file) }
            pendingRemovals.remove(file)
            unlink(file)
        }
    }

    /// Follows verdicts and corrections into the clips' JSON; the first host verdict
    /// of a recorded attempt starts its derived export.
    func sessionChanged(_ session: GameSession, id: String) {
        for record in session.attempts {
            guard case .saved(let file) = record.media else { continue }
            let json = jsonPath(of: file)
            guard var clip = metadata[json] ?? load(json) else { continue }
            guard clip.attempt.verdicts != record.verdicts else { continue }
            clip.attempt.verdicts = record.verdicts
            clip.attempt.verdict = record.verdict?.rawValue
            clip.refreshAnnotations()
            if clip.export == nil, record.verdicts.contains(where: { $0.by == .host }) {
                clip.export = plannedExport(for: clip, json: json)
                clip.refreshAnnotations()
            }
            write(clip)
            if clip.export?.state == .pending { runExport(json) }
        }
    }

    private func load(_ json: String) -> GameClipMetadata? {
        guard !unreadable.contains(json) else { return nil }
        guard let clip = GameClipMetadata.read(json) else {
            unreadable.insert(json)
            return nil
        }
        metadata[json] = clip
        return clip
    }

    /// Visual S/Z gets the cue burned in; spoken play the narration mixed in, unless the
    /// file has no sound to mix it into (picture only): then none is offered.
    func plannedExport(for clip: GameClipMetadata, json: String) -> DerivedExportStatus? {
        let kind: DerivedExportStatus.Kind = clip.attempt.mode == GameMode.visual.rawValue ? .cue : .narrated
        if kind == .narrated, clip.attempt.timeline.audio == "none" { return nil }
        return DerivedExportStatus(kind: kind, state: .pending,
                                   file: (derivedPath(of: json, kind: kind) as NSString).lastPathComponent)
    }

    /// Writes the metadata crash-safely off the loop (one writer thread, in order).
    func write(_ clip: GameClipMetadata) {
        let json = jsonPath(of: clip.recording.path)
        metadata[json] = clip
        unreadable.remove(json)
        do {
            let data = try clip.encoded()
            MetadataWriter.shared.write(data, to: json)
        } catch {
            KioskLog.warning("game clip \(json): \(error)")
        }
    }
}
