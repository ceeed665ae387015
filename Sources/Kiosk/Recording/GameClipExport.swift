import Foundation
import Media
import Stage

/// What a derived export needs, handed to its thread.
enum GameClipExportJob: Sendable {
    case cue(CueInterval, OverlayPicture)
    /// The instruction as it was played, placed where it started on the timeline.
    case narrated(NarrationClip)
    /// The same, synthesized again (after a restart the played clip is gone; espeak-ng
    /// makes the same samples for the same text, voice and speed).
    case narratedAgain(text: String, voice: String, wordsPerMinute: Int, start: Double)

    func run(from source: String, to destination: String, settings: RecorderSettings) -> Result<ExportResult, MediaError> {
        do throws(MediaError) {
            switch self {
            case let .cue(interval, badge):
                return .success(try CueExport.export(from: source, to: destination, cue: interval, badge: badge,
                                                     settings: settings))
            case let .narrated(clip):
                return .success(try NarratedExport.export(from: source, to: destination, narration: [clip],
                                                          settings: settings))
            case let .narratedAgain(text, voice, wordsPerMinute, start):
                let clip: SpeechClip
                do {
                    clip = try SpeechSynthesizer.shared.synthesize(text, voice: voice, rate: wordsPerMinute)
                } catch {
                    throw MediaError.badInput("the instruction could not be synthesized again: \(error)")
                }
                return .success(try NarratedExport.export(from: source, to: destination,
                                                          narration: [Self.narration(clip, start: start)],
                                                          settings: settings))
            }
        } catch {
            return .failure(error)
        }
    }

    static func narration(_ clip: SpeechClip, start: Double) -> NarrationClip {
        NarrationClip(samples: clip.samples.map { Float($0) / 32768 }, sampleRate: clip.sampleRate, start: start)
    }
}

/// Derived exports of game clips: made on a worker thread after the verdict, with the
/// original leased meanwhile; their state (pending, ready, failed with the reason) in
/// the clip's JSON; a failed one made again on request.
extension KioskGameRecording {
    func runExport(_ json: String) {
        guard !exporting.contains(json), var clip = metadata[json] ?? GameClipMetadata.read(json),
              var status = clip.export else { return }
        let source = mediaPath(of: json)
        let job: GameClipExportJob
        switch exportJob(for: clip, json: json) {
        case let .failure(reason):
            status.state = .failed
            status.reason = reason.description
            clip.export = status
            clip.refreshAnnotations()
            return write(clip)
        case let .success(made): job = made
        }
        if status.state != .pending {
            status.state = .pending
            status.reason = nil
            clip.export = status
            clip.refreshAnnotations()
            write(clip)
        }
        exporting.insert(json)
        let lease = service.stored.leases.acquire(source, for: "\(status.kind.rawValue) export")
        let destination = derivedPath(of: json, kind: status.kind)
        let settings = service.settings.recorder
        let box = LoopBound(self)
        let post = service.post
        let thread = Thread {
            // Below the recorder and the displays: an export may wait, a recording may not.
            // (Linux keeps the nice value per thread; 0 names the calling one.)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            let result = job.run(from: source, to: destination, settings: settings)
            post { box.value?.exportEnded(json, lease: lease, result: result) }
        }
        thread.name = "rig-clip-derive"
        thread.start()
        KioskLog.info("game clip \(json): \(status.kind.rawValue) export started")
    }

    private func exportJob(for clip: GameClipMetadata, json: String) -> Result<GameClipExportJob, RecordingError> {
        guard FileManager.default.fileExists(atPath: mediaPath(of: json)) else {
            return .failure(.noMedia((json as NSString).lastPathComponent))
        }
        let attempt = clip.attempt
        switch clip.export?.kind {
        case .cue?:
            guard let cue = attempt.cue else {
                return .failure(.exportNotPossible("the cue was never shown on the outer display"))
            }
            guard let badge = badgePicture(cue.letter, attempt.width, attempt.height) else {
                return .failure(.exportNotPossible("the cue's badge could not be drawn (no fonts)"))
            }
            return .success(.cue(cue.interval, badge))
        case .narrated?:
            guard let start = attempt.timeline.speechStart else {
                return .failure(.exportNotPossible("the instruction was never played"))
            }
            if let played = playedVoices[json] { return .success(.narrated(GameClipExportJob.narration(played, start: start))) }
            return .success(.narratedAgain(text: attempt.instruction, voice: voice, wordsPerMinute: attempt.wordsPerMinute,
                                           start: start))
        case nil:
            return .failure(.exportNotPossible("the clip has no derived export"))
        }
    }

    private func exportEnded(_ json: String, lease: MediaLeases.Lease, result: Result<ExportResult, MediaError>) {
        service.stored.leases.release(lease)
        exporting.remove(json)
        guard var clip = metadata[json] ?? GameClipMetadata.read(json), var status = clip.export else {
            // The clip's media were deleted meanwhile: the export goes with them.
            if case let .success(made) = result { unlink(made.path) }
            return
        }
        switch result {
        case let .success(made):
            status.state = .ready
            status.reason = nil
            playedVoices[json] = nil
            KioskLog.info("game clip \(json): \(status.kind.rawValue) export ready (\(made.videoFrames) frames, "
                          + "\(made.badgedFrames) with the cue)")
        case let .failure(error):
            status.state = .failed
            status.reason = error.description
            KioskLog.warning("game clip \(json): \(status.kind.rawValue) export failed: \(error)")
        }
        clip.export = status
        clip.refreshAnnotations()
        write(clip)
    }

    /// `rig ctl clips retry ID`: makes a failed derived export again.
    func retryExport(id: String) throws(RecordingError) -> DerivedExportStatus {
        let json = service.settings.folder + "/" + id + ".json"
        guard let clip = ClipFolder.clip(folder: service.settings.folder, id: id) else { throw .noClip(id) }
        guard let status = (metadata[json] ?? GameClipMetadata.read(json))?.export else {
            throw .exportNotPossible("clip \"\(id)\" has no derived export" + (clip.kind == "game"
                ? " yet (it is made once the host has judged the attempt)" : ""))
        }
        if exporting.contains(json) { throw .clipInUse(id, ["\(status.kind.rawValue) export"]) }
        guard status.state == .failed || status.state == .pending else {
            throw .exportNotPossible("the \(status.kind.rawValue) export of \"\(id)\" is ready; nothing to retry")
        }
        runExport(json)
        return (metadata[json] ?? GameClipMetadata.read(json))?.export ?? status
    }

    /// At start: exports a restart cut short (still pending in their JSON) run again.
    func resumePendingExports() {
        for clip in ClipFolder.clips(in: service.settings.folder) where clip.export?.state == .pending {
            runExport(clip.metadataPath)
        }
    }
}
