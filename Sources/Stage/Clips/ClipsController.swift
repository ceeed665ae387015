import Foundation
import Media
import Render

/// The Clips screen and `rig ctl clips` as the rig runs them: the list the store reads,
/// the selection, delete and export through the store, and the replay on the one
/// clock, its pictures from the decoder and its sound on the output, the replay's clock
/// following the sound's DAC time. The stage never touches a file: the ports do.
package final class ClipsController {
    package var store: any ClipStorePort = NoClipStore()
    package var decoder: any ReplayDecoderPort = NoReplayDecoder()
    package var sound: any SoundOutputPort = NoSoundOutput()
    /// The recordings as the store last listed them.
    package private(set) var listing = ClipsInput.none
    /// The clip being replayed on the Clips screen.
    package private(set) var replay: ClipReplay?
    /// The replay's sound as the decoder hands it over, and what the output was told of it.
    private var feed = ReplaySoundFeed()
    private var soundStream: (generation: Int, id: Int?)?
    /// The clip the console last exported: its progress shows on the screen.
    private var consoleExport: String?

    private let console: ConsoleController
    private let now: () -> Double
    /// Whether a game is open now (its clips are the Current game list).
    var currentGame: () -> String? = { nil }
    /// The inner display draws again.
    var innerChanged: () -> Void = {}

    init(console: ConsoleController, now: @escaping () -> Double) {
        self.console = console
        self.now = now
    }

    /// The store's list read again (the screen opened, a take ended, an export moved on).
    package func refresh() {
        listing = store.listing(exporting: consoleExport, currentGame: currentGame())
        if let replay, !listing.clips.contains(where: { $0.id == replay.id }) { close() }
        selectIfNeeded()
        console.clipsChanged()
    }

    /// The rows of the list shown now.
    var rows: [ClipSummary] {
        console.state.clipList == .currentGame ? listing.currentGameClips : listing.clips
    }

    private var selected: ClipSummary? { rows.first { $0.id == console.state.selectedClip } }

    private func selectIfNeeded() {
        let rows = rows
        guard !rows.contains(where: { $0.id == console.state.selectedClip }) else { return }
        console.update { $0.selectedClip = rows.first?.id }
    }

    /// The Clips screen shown (true) or left (false): a replay ends with the screen.
    func screenShown(_ shown: Bool) {
        if shown { refresh() } else { close() }
    }

    // MARK: the console's controls

    /// A Clips control activated (click, tap, Enter) or a key's meaning.
    func widget(_ id: WidgetID, openScreen: () -> Void) {
        switch id {
        case "clips:list:game", "clips:list:all":
            console.update { $0.clipList = id.hasSuffix("game") ? .currentGame : .allSaved }
            selectIfNeeded()
        case "clips:next", "clips:previous":
            let rows = rows
            guard !rows.isEmpty else { return }
            let index = rows.firstIndex { $0.id == console.state.selectedClip } ?? -1
            let next = min(max(index + (id.hasSuffix("next") ? 1 : -1), 0), rows.count - 1)
            console.update { $0.selectedClip = rows[next].id; $0.focus = "clip:" + rows[next].id }
        case "clips:replay":
            if let clip = selected { open(clip) }
        case "clips:play":
            toggle(at: now())
        case "clips:stop":
            close()
        case "clips:full":
            guard replay != nil else { return }
            replay?.fullScreen.toggle()
            console.clipsChanged()
        case "clips:escape":
            if replay?.fullScreen == true {
                replay?.fullScreen = false
                console.clipsChanged()
            } else if replay != nil {
                close()
            } else {
                openScreen()
            }
        case "clips:delete":
            guard let clip = selected else { return }
            console.update { $0.dialog = .confirmDeleteClip(id: clip.id, title: clip.displayName); $0.focus = "dialog:cancel" }
        case "clips:retry":
            guard let clip = selected else { return }
            switch store.retryExport(clip.id) {
            case .success: console.update { $0.notice = "Making the export of \(clip.displayName) again…" }
            case let .failure(refusal): console.update { $0.notice = "Not retried: \(refusal)" }
            }
            refresh()
        case "clips:eject":
            refresh()
            switch StickControl.stickToEject(listing).flatMap({ store.eject($0.label) }) {
            case .success: console.update { $0.notice = nil }
            case let .failure(refusal): console.update { $0.notice = "Not ejected: \(refusal)" }
            }
            refresh()
        case "clips:export":
            guard let clip = selected else { return }
            refresh()
            console.update { $0.dialog = .exportClip(id: clip.id, title: clip.displayName); $0.focus = "dialog:cancel" }
        case "dialog:confirm":
            guard case let .confirmDeleteClip(clipID, _) = console.state.dialog else { return }
            if replay?.id == clipID { close() }
            console.update { $0.dialog = nil; $0.focus = nil }
            delete(clipID)
        default:
            if id.hasPrefix("dialog:destination:"), case let .exportClip(clipID, _) = console.state.dialog,
               let index = Int(id.dropFirst("dialog:destination:".count)), listing.destinations.indices.contains(index) {
                console.update { $0.dialog = nil; $0.focus = "clip:" + clipID }
                export(clipID, to: listing.destinations[index].path)
            } else if id.hasPrefix("clip:") {
                // A clip row activated (a click on the selected row, Enter on a focused one):
                // focusing it selected it, so this replays it.
                let clipID = String(id.dropFirst("clip:".count))
                console.update { $0.selectedClip = clipID; $0.focus = id }
                if let clip = selected { open(clip) }
            }
        }
    }

    private func delete(_ id: String) {
        switch store.delete(id) {
        case .success:
            KioskLog.notice("deleted clip \(id) from the console")
            console.update { $0.notice = "Deleted \(id)" }
        case let .failure(refusal):
            console.update { $0.notice = "Not deleted: \(refusal)" }
        }
        refresh()
    }

    private func export(_ id: String, to folder: String) {
        switch store.export(id, to: folder) {
        case .success:
            consoleExport = id
            console.update { $0.notice = nil }
        case let .failure(refusal):
            console.update { $0.notice = "Not exported: \(refusal)" }
        }
        refresh()
    }

    // MARK: `rig ctl clips`

    /// `rig ctl clips list|export|delete|retry|replay|stop`. Delete asks nothing here
    /// (the console confirms); clips a replay or an export holds are refused.
    func request(action: String, id: String?, to destination: String?) -> ControlReply {
        switch action {
        case "list":
            return .success(["clips": store.listJSON])
        case "export":
            let folder = destination ?? store.exportFolder
            guard !folder.isEmpty else {
                return .failure("clips export needs a folder: --to FOLDER, or [recording] export_folder in rig.toml")
            }
            return reply(store.export(id ?? "", to: folder).map { ["export": $0] })
        case "delete":
            return reply(store.delete(id ?? "").map {
                KioskLog.notice("deleted clip \(id ?? "") on request")
                return ["deleted": .optional(id)]
            })
        case "retry":
            return reply(store.retryExport(id ?? "").map { ["id": .optional(id), "export": $0] })
        case "replay":
            // As the operator would: the Clips screen, the clip selected, Replay.
            refresh()
            guard let clip = listing.clips.first(where: { $0.id == id }) else {
                return .failure(store.refusal(replaying: id ?? "").description)
            }
            guard clip.hasMedia else { return .failure(store.refusal(replaying: clip.id).description) }
            console.show(.clips)
            console.update { $0.clipList = .allSaved; $0.selectedClip = clip.id }
            open(clip)
            return .success(["replay": .string(clip.id)])
        case "stop":
            close()
            return .success()
        default:
            return .failure("clips takes list, export, delete, replay, retry or stop")
        }
    }

    /// `rig ctl media list|eject NAME`: the sticks as the share sheet lists them now.
    func media(action: String, name: String?) -> ControlReply {
        refresh()
        let reply = StickControl.request(action: action, name: name, listing: listing, store: store)
        if action == "eject" { refresh() }
        return reply
    }

    private func reply(_ result: Result<[String: JSONValue], ClipRefusal>) -> ControlReply {
        switch result {
        case let .success(fields): .success(fields)
        case let .failure(refusal): .failure(refusal.description)
        }
    }

    // MARK: the replay

    /// Opens `clip` for replay, playing from the top.
    package func open(_ clip: ClipSummary) {
        guard clip.hasMedia else {
            console.update { $0.notice = "“\(clip.displayName)” has no video any more (removed by retention)." }
            return
        }
        if replay != nil { close() }
        var opened = ClipReplay(id: clip.id, title: clip.displayName, duration: clip.duration ?? .infinity, cue: clip.cue)
        let time = now()
        opened.clock.play(at: time)
        replay = opened
        feed = ReplaySoundFeed()
        // The replay is in place first: a clip that cannot be opened is delivered at once.
        replay?.source = decoder.open(clip.id, soundRate: sound.sampleRate)
        decoder.want(clip.id, through: ClipReplay.lead)
        replay?.soundFrom = 0
        playSound(from: 0)
        console.clipsChanged()
        innerChanged()
    }

    private func toggle(at time: Double) {
        guard var replay else {
            if let clip = selected { open(clip) }
            return
        }
        if replay.clock.isPlaying(at: time) {
            replay.clock.pause(at: time)
            replay.soundFrom = nil
            self.replay = replay
            stopSound()
        } else {
            let restarting = replay.clock.hasEnded(at: time)
            replay.clock.play(at: time)
            if restarting {
                // From the top again: a fresh decoder (a decoder only goes forward).
                replay.pictures.removeAll()
                replay.decoderEnded = false
                stopSound()
                decoder.close(replay.id)
                feed = ReplaySoundFeed()
                replay.source = decoder.open(replay.id, soundRate: sound.sampleRate)
            }
            let position = replay.clock.position(at: time)
            replay.soundFrom = position
            self.replay = replay
            decoder.want(replay.id, through: position + ClipReplay.lead)
            playSound(from: position)
        }
        console.clipsChanged()
        innerChanged()
    }

    /// Closes the replay: the decoder stops, its lease goes, the sound stops.
    package func close() {
        guard let replay else { return }
        self.replay = nil
        stopSound()
        decoder.close(replay.id)
        console.clipsChanged()
        innerChanged()
    }

    /// Pictures and sound (or the end, or a failure) from the decoder: pictures to the
    /// queue, sound to the output as it comes.
    func delivered(id: String, _ delivery: ClipDecoder.Delivery) {
        guard var replay, replay.id == id else { return }
        var actions: [ReplaySoundFeed.Action] = []
        for piece in delivery.sound { actions += feed.received(piece) }
        if delivery.soundEnded { actions += feed.soundEnded() }
        // Only what is ahead of the position is kept: a long take holds a second of sound.
        let time = now()
        if replay.clock.isPlaying(at: time) { feed.trim(before: replay.clock.position(at: time)) }
        for picture in delivery.pictures { replay.pictures.append(picture) }
        if delivery.ended {
            replay.decoderEnded = true
            // The clip ends with its last picture when the JSON gave no duration.
            if let last = replay.pictures.newestTime, replay.clock.duration == .infinity {
                replay.clock.duration = last + 1.0 / 30
            }
        }
        if let failure = delivery.failure { replay.failure = "Replay failed: \(failure.description)" }
        self.replay = replay
        perform(actions)
        if delivery.failure != nil || delivery.ended { console.clipsChanged() }
        innerChanged()
    }

    /// The replay's sound from `position` on, through the same output (and mixer) as speech.
    private func playSound(from position: Double) {
        guard sound.sampleRate != nil else { return }
        stopSound()
        feed.trim(before: position)
        perform(feed.play(from: position))
    }

    private func stopSound() {
        feed.pause()
        if let stream = soundStream { sound.cancel(generation: stream.generation) }
        soundStream = nil
    }

    private func perform(_ actions: [ReplaySoundFeed.Action]) {
        guard let id = replay?.id else { return }
        for action in actions {
            switch action {
            case let .start(position, samples, rate):
                let generation = sound.newGeneration()
                let stream = sound.stream(samples, rate: rate, generation: generation, slipped: { [weak self] seconds in
                    // The decoder fell behind: the sound went on late, and the picture waits as long.
                    self?.soundSlipped(id: id, by: seconds)
                }, report: { [weak self] report in
                    switch report {
                    case let .started(time):
                        // The first sample's DAC time: the replay's clock follows the sound.
                        self?.soundStarted(id: id, position: position, time: time)
                    case let .failed(reason) where reason != "stopped":
                        KioskLog.warning("replay sound did not play: \(reason)")
                    default: break
                    }
                })
                soundStream = (generation, stream)
            case let .append(samples):
                guard let stream = soundStream?.id, let rate = feed.sampleRate else { continue }
                sound.append(samples, rate: rate, to: stream)
            case .finish:
                if let stream = soundStream?.id { sound.finish(stream) }
            }
        }
    }

    /// The output says the replay's sound from `position` reached the DAC at `time`
    /// (CLOCK_MONOTONIC): the replay's clock follows it, so the picture shown at a
    /// vblank and the sample heard then are the same moment of the clip. A report for a
    /// play since paused or replaced changes nothing.
    package func soundStarted(id: String, position: Double, time: Double) {
        guard var replay, replay.id == id, let asked = replay.soundFrom, abs(asked - position) < 1e-6,
              replay.clock.isPlaying(at: now()) else { return }
        let expected = replay.clock.time(ofPosition: position) ?? time
        replay.clock.anchor(position: position, at: time)
        replay.soundFrom = nil
        replay.soundShift = time - expected
        self.replay = replay
        innerChanged()
    }

    /// The replay's sound ran dry (its decoding fell behind) and went on `seconds` late:
    /// the clock waits as long, so picture and sound stay together.
    package func soundSlipped(id: String, by seconds: Double) {
        guard var replay, replay.id == id, seconds > 0, replay.clock.isPlaying(at: now()) else { return }
        replay.clock.delay(by: seconds)
        replay.soundShift = (replay.soundShift ?? 0) + seconds
        self.replay = replay
        innerChanged()
    }

    /// The replay at a frame's presentation time: the picture due then is taken from
    /// the queue, and the decoder is asked for what the next frames will need.
    func shown(at time: Double) -> (shown: ClipReplay.Shown, picture: ReplayPicture?)? {
        guard var replay, console.state.screen == .clips else { return nil }
        let position = replay.clock.position(at: time)
        let picture = replay.pictures.picture(at: position)
        let playing = replay.clock.isPlaying(at: time)
        self.replay = replay
        if playing { decoder.want(replay.id, through: position + ClipReplay.lead) }
        let shown = ClipReplay.Shown(id: replay.id, title: replay.title, playing: playing, position: position,
                                     duration: replay.clock.duration, fullScreen: replay.fullScreen,
                                     failure: replay.failure, pictureIndex: picture?.index,
                                     cue: replay.cueLetter(over: picture))
        return (shown, picture)
    }

    /// A playing replay needs every vblank until its end.
    func isAnimating(at time: Double) -> Bool {
        guard let replay, console.state.screen == .clips, replay.failure == nil else { return false }
        return replay.clock.isPlaying(at: time)
    }

    /// `clips` in `rig ctl status`: how many, the selection, the replay and the last export.
    var status: JSONValue {
        let time = now()
        let replayStatus: JSONValue = replay.map { replay in
            ["id": .string(replay.id), "position": .number(replay.clock.position(at: time)),
             "playing": .bool(replay.clock.isPlaying(at: time)), "full_screen": .bool(replay.fullScreen),
             "shown": .optional(replay.pictures.shown.map { "\($0.index)" }), "failure": .optional(replay.failure),
             "source": .string(replay.source.rawValue),
             "cue": .optional(replay.cueLetter(over: replay.pictures.shown).map(String.init)),
             "sound_shift_ms": replay.soundShift.map { .number(($0 * 1000).rounded()) } ?? .null]
        } ?? .null
        let export: JSONValue = listing.export.map { export in
            ["id": .string(export.id), "to": .string(export.destination), "state": .string(export.state.rawValue),
             "fraction": export.fraction.map { .number($0) } ?? .null, "message": .optional(export.message)]
        } ?? .null
        return ["count": .int(listing.clips.count), "list": .string(console.state.clipList.rawValue),
                "selected": .optional(console.state.selectedClip), "replay": replayStatus, "export": export,
                "eject": listing.eject.map(StickControl.json) ?? .null]
    }
}
