import Foundation
import Media
import Stage

/// The console's Clips screen on the kiosk: the recordings read here and handed to
/// the stage as data, and the stage's requests carried out: replay (decoder thread,
/// lease, sound on the output device), delete (the leases still apply), export to a
/// mounted stick or the export folder, with its progress back on the screen.
extension KioskApp {
    func startClipsConsole() {
        stage.clipRequested = { [weak self] request in self?.clipRequest(request) }
        // A take (or an attempt) that ended is listed at once; whoever else listens still is.
        let ended = recording?.onEnded
        recording?.onEnded = { [weak self] outcome in
            ended?(outcome)
            self?.refreshClips()
        }
        refreshClips()
    }

    /// Reads the recordings folder and the mounts again and hands them to the stage.
    func refreshClips() {
        guard let recording, recording.settings.enabled else {
            stage.handle(.clips(.none))
            return
        }
        let clips = recording.clips().map(ClipListing.summary)
        let export = consoleExport.flatMap { recording.exports[$0] }.map(Self.progress)
        stage.handle(.clips(ClipsInput(
            clips: clips, currentGame: ClipListing.currentGame(clips, gameOpen: stage.game.session != nil),
            destinations: RemovableMounts.destinations(exportFolder: config.recording.exportFolder), export: export)))
    }

    func clipRequest(_ request: ClipRequest) {
        switch request {
        case let .openReplay(id): openReplay(id)
        case let .replayWants(id, time): if replayer?.id == id { replayer?.decoder.want(through: time) }
        case let .replayPlaying(id, position, _): if replayer?.id == id { playReplaySound(from: position) }
        case let .replayPaused(id): if replayer?.id == id { stopReplaySound() }
        case let .closeReplay(id): if replayer?.id == id { closeReplay() }
        case let .delete(id): deleteClip(id)
        case let .export(id, folder): exportClip(id, to: folder)
        case .refresh: refreshClips()
        }
    }

    private func openReplay(_ id: String) {
        if replayer != nil { closeReplay() }
        guard let recording, let clip = ClipFolder.clip(folder: recording.settings.folder, id: id), clip.hasMedia else {
            stage.handle(.replayDelivery(id: id, ClipDecoder.Delivery(failure: .badInput("clip \(id) has no video"))))
            return
        }
        let lease = recording.leases.acquire(clip.mediaPath, for: "replay")
        let handle = ReplayHandle(app: self, id: id)
        let mailbox = loop.mailbox
        let decoder = ClipDecoder(path: clip.mediaPath, sound: audio?.playback != nil,
                                  soundRate: audio?.playback?.settings.rate) {
            mailbox.post { handle.app?.replayReady(handle.id) }
        }
        replayer = ClipReplayer(id: id, decoder: decoder, lease: lease)
    }

    /// The decoder has pictures (or sound, the end, a failure): pictures to the stage,
    /// sound to the output as it comes (the stream started at the position once some is there).
    fileprivate func replayReady(_ id: String) {
        guard let replayer, replayer.id == id else { return }
        let delivery = replayer.decoder.take()
        var actions: [ReplaySoundFeed.Action] = []
        for piece in delivery.sound { actions += replayer.feed.received(piece) }
        if delivery.soundEnded { actions += replayer.feed.soundEnded() }
        // Only what is ahead of the position is kept: a long take holds a second of sound.
        if let position = currentReplayPosition { replayer.feed.trim(before: position) }
        perform(actions, for: replayer)
        stage.handle(.replayDelivery(id: id, delivery))
    }

    private var currentReplayPosition: Double? {
        guard let replay = stage.replay, replay.clock.isPlaying(at: loop.clock()) else { return nil }
        return replay.clock.position(at: loop.clock())
    }

    /// The replay's sound from `position` on, through the same output (and mixer) as speech.
    private func playReplaySound(from position: Double) {
        guard let replayer, audio != nil else { return }
        stopReplaySound()
        replayer.feed.trim(before: position)
        perform(replayer.feed.play(from: position), for: replayer)
    }

    private func perform(_ actions: [ReplaySoundFeed.Action], for replayer: ClipReplayer) {
        guard let audio else { return }
        for action in actions {
            switch action {
            case let .start(position, samples, rate):
                let generation = audio.newGeneration()
                let handle = ReplayHandle(app: self, id: replayer.id)
                replayer.audioGeneration = generation
                let sound = PreparedSound(samples: samples, sampleRate: rate)
                replayer.audioID = audio.stream(sound, generation: generation, slipped: { seconds in
                    // The decoder fell behind: the sound went on late, and the picture waits as long.
                    handle.app?.stage.replaySoundSlipped(id: handle.id, by: seconds)
                }) { report in
                    switch report {
                    case let .started(_, time):
                        // The first sample's DAC time: the replay's clock follows the sound.
                        handle.app?.stage.replaySoundStarted(id: handle.id, position: position, time: time)
                    case let .failed(_, reason) where reason != "stopped":
                        KioskLog.warning("replay sound did not play: \(reason)")
                    default: break
                    }
                }
            case let .append(samples):
                guard let id = replayer.audioID, let rate = replayer.feed.sampleRate else { continue }
                audio.append(PreparedSound(samples: samples, sampleRate: rate), to: id)
            case .finish:
                if let id = replayer.audioID { audio.finish(id) }
            }
        }
    }

    private func stopReplaySound() {
        guard let replayer else { return }
        replayer.feed.pause()
        if let generation = replayer.audioGeneration { audio?.cancel(generation: generation) }
        replayer.audioGeneration = nil
        replayer.audioID = nil
    }

    /// Stops the decoder and gives the lease back: the clip may be deleted again.
    func closeReplay() {
        guard let replayer else { return }
        stopReplaySound()
        replayer.decoder.stop()
        recording?.leases.release(replayer.lease)
        self.replayer = nil
    }

    private func deleteClip(_ id: String) {
        guard let recording else { return }
        do {
            try recording.delete(id: id)
            KioskLog.notice("deleted clip \(id) from the console")
            stage.console.update { $0.notice = "Deleted \(id)" }
        } catch {
            stage.console.update { $0.notice = "Not deleted: \(error.description)" }
        }
        refreshClips()
    }

    private func exportClip(_ id: String, to folder: String) {
        guard let recording else { return }
        // Both run on the loop (posted back by the copying thread).
        let box = LoopBound(self)
        do {
            _ = try recording.export(id: id, to: folder, progress: { _ in
                box.value?.refreshClips()
            }, done: { export in
                if export.state == .failed { KioskLog.warning("export of \(export.id) failed: \(export.error ?? "")") }
                box.value?.refreshClips()
            })
            consoleExport = id
            stage.console.update { $0.notice = nil }
        } catch {
            stage.console.update { $0.notice = "Not exported: \(error.description)" }
        }
        refreshClips()
    }

    static func progress(_ export: ClipExport) -> ClipExportProgress {
        let state: ClipExportProgress.State = switch export.state {
        case .copying: .copying
        case .done: .done
        case .failed: .failed
        }
        return ClipExportProgress(id: export.id, destination: export.destination, state: state,
                                  fraction: export.fraction, message: export.error)
    }
}
