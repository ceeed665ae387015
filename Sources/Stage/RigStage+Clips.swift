import Foundation
import Media
import Render

/// The Clips screen applied to the stage: the list the kiosk handed in, the replay
/// on the one clock, and the operator's actions going out as `ClipRequest`s. The
/// stage never touches a file: delete, export and decoding are the kiosk's.
extension RigStage {
    /// The kiosk read the recordings again (at start, after a take, a delete, an export step).
    func clipsArrived(_ input: ClipsInput) {
        clips = input
        if let replay, !input.clips.contains(where: { $0.id == replay.id }) { closeReplay() }
        selectClipIfNeeded()
        console.clipsChanged()
    }

    /// Pictures (and the end, or a failure) from the replay's decoder.
    func replayDelivered(id: String, _ delivery: ClipDecoder.Delivery) {
        guard var replay, replay.id == id else { return }
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
        if delivery.failure != nil || delivery.ended { console.clipsChanged() }
        frameWanted(.inner)
    }

    /// The rows of the list shown now.
    var clipRows: [ClipSummary] {
        console.state.clipList == .currentGame ? clips.currentGameClips : clips.clips
    }

    private var selectedClip: ClipSummary? {
        clipRows.first { $0.id == console.state.selectedClip }
    }

    func selectClipIfNeeded() {
        let rows = clipRows
        guard !rows.contains(where: { $0.id == console.state.selectedClip }) else { return }
        console.update { $0.selectedClip = rows.first?.id }
    }

    /// A Clips control activated (click, tap, Enter) or a key's meaning.
    func clipsWidget(_ id: WidgetID) {
        let time = now()
        switch id {
        case "clips:list:game", "clips:list:all":
            console.update { $0.clipList = id.hasSuffix("game") ? .currentGame : .allSaved }
            selectClipIfNeeded()
        case "clips:next", "clips:previous":
            let rows = clipRows
            guard !rows.isEmpty else { return }
            let index = rows.firstIndex { $0.id == console.state.selectedClip } ?? -1
            let next = min(max(index + (id.hasSuffix("next") ? 1 : -1), 0), rows.count - 1)
            console.update { $0.selectedClip = rows[next].id; $0.focus = "clip:" + rows[next].id }
        case "clips:replay":
            if let clip = selectedClip { openReplay(clip) }
        case "clips:play":
            toggleReplay(at: time)
        case "clips:stop":
            closeReplay()
        case "clips:full":
            guard replay != nil else { return }
            replay?.fullScreen.toggle()
            console.clipsChanged()
        case "clips:escape":
            if replay?.fullScreen == true {
                replay?.fullScreen = false
                console.clipsChanged()
            } else if replay != nil {
                closeReplay()
            } else {
                console.show(controller.script == nil ? .library : .prompter)
            }
        case "clips:delete":
            guard let clip = selectedClip else { return }
            console.update { $0.dialog = .confirmDeleteClip(id: clip.id, title: clip.displayName); $0.focus = "dialog:cancel" }
        case "clips:export":
            guard let clip = selectedClip else { return }
            clipRequested(.refresh)
            console.update { $0.dialog = .exportClip(id: clip.id, title: clip.displayName); $0.focus = "dialog:cancel" }
        case "dialog:confirm":
            guard case let .confirmDeleteClip(clipID, _) = console.state.dialog else { return }
            if replay?.id == clipID { closeReplay() }
            console.update { $0.dialog = nil; $0.focus = nil }
            clipRequested(.delete(id: clipID))
        default:
            if id.hasPrefix("dialog:destination:"), case let .exportClip(clipID, _) = console.state.dialog,
               let index = Int(id.dropFirst("dialog:destination:".count)), clips.destinations.indices.contains(index) {
                console.update { $0.dialog = nil; $0.focus = "clip:" + clipID }
                clipRequested(.export(id: clipID, to: clips.destinations[index].path))
            } else if id.hasPrefix("clip:") {
                // A clip row activated (a click on the selected row, Enter on a focused one):
                // focusing it selected it, so this replays it.
                let clipID = String(id.dropFirst("clip:".count))
                console.update { $0.selectedClip = clipID; $0.focus = id }
                if let clip = selectedClip { openReplay(clip) }
            }
        }
    }

    /// Opens `clip` for replay, playing from the top; the kiosk starts the decoder.
    package func openReplay(_ clip: ClipSummary) {
        guard clip.hasMedia else {
            console.update { $0.notice = "“\(clip.displayName)” has no video any more (removed by retention)." }
            return
        }
        if replay != nil { closeReplay() }
        var opened = ClipReplay(id: clip.id, title: clip.displayName, duration: clip.duration ?? .infinity)
        let time = now()
        opened.clock.play(at: time)
        replay = opened
        clipRequested(.openReplay(id: clip.id))
        clipRequested(.replayWants(id: clip.id, through: ClipReplay.lead))
        replay?.soundFrom = 0
        clipRequested(.replayPlaying(id: clip.id, position: 0, time: time))
        console.clipsChanged()
        frameWanted(.inner)
    }

    func toggleReplay(at time: Double) {
        guard var replay else {
            if let clip = selectedClip { openReplay(clip) }
            return
        }
        if replay.clock.isPlaying(at: time) {
            replay.clock.pause(at: time)
            replay.soundFrom = nil
            clipRequested(.replayPaused(id: replay.id))
        } else {
            let restarting = replay.clock.hasEnded(at: time)
            replay.clock.play(at: time)
            if restarting {
                // From the top again: a fresh decoder (a decoder only goes forward).
                replay.pictures.removeAll()
                replay.decoderEnded = false
                clipRequested(.closeReplay(id: replay.id))
                clipRequested(.openReplay(id: replay.id))
            }
            let position = replay.clock.position(at: time)
            replay.soundFrom = position
            clipRequested(.replayWants(id: replay.id, through: position + ClipReplay.lead))
            clipRequested(.replayPlaying(id: replay.id, position: position, time: time))
        }
        self.replay = replay
        console.clipsChanged()
        frameWanted(.inner)
    }

    /// The output says the replay's sound from `position` reached the DAC at `time`
    /// (CLOCK_MONOTONIC): the replay's clock follows it, so the picture shown at a
    /// vblank and the sample heard then are the same moment of the clip. A report for a
    /// play since paused or replaced changes nothing.
    package func replaySoundStarted(id: String, position: Double, time: Double) {
        guard var replay, replay.id == id, let asked = replay.soundFrom, abs(asked - position) < 1e-6,
              replay.clock.isPlaying(at: now()) else { return }
        let expected = replay.clock.time(ofPosition: position) ?? time
        replay.clock.anchor(position: position, at: time)
        replay.soundFrom = nil
        replay.soundShift = time - expected
        self.replay = replay
        frameWanted(.inner)
    }

    /// The replay's sound ran dry (its decoding fell behind) and went on `seconds` late:
    /// the clock waits as long, so picture and sound stay together.
    package func replaySoundSlipped(id: String, by seconds: Double) {
        guard var replay, replay.id == id, seconds > 0, replay.clock.isPlaying(at: now()) else { return }
        replay.clock.delay(by: seconds)
        replay.soundShift = (replay.soundShift ?? 0) + seconds
        self.replay = replay
        frameWanted(.inner)
    }

    package func closeReplay() {
        guard let replay else { return }
        self.replay = nil
        clipRequested(.closeReplay(id: replay.id))
        console.clipsChanged()
        frameWanted(.inner)
    }

    /// The replay at a frame's presentation time: the picture due then is taken from
    /// the queue, and the decoder is asked for what the next frames will need.
    func replayShown(at time: Double) -> (shown: ClipReplay.Shown, picture: ReplayPicture?)? {
        guard var replay, console.state.screen == .clips else { return nil }
        let position = replay.clock.position(at: time)
        let picture = replay.pictures.picture(at: position)
        let playing = replay.clock.isPlaying(at: time)
        self.replay = replay
        if playing { clipRequested(.replayWants(id: replay.id, through: position + ClipReplay.lead)) }
        let shown = ClipReplay.Shown(id: replay.id, title: replay.title, playing: playing, position: position,
                                     duration: replay.clock.duration, fullScreen: replay.fullScreen,
                                     failure: replay.failure, pictureIndex: picture?.index)
        return (shown, picture)
    }

    /// `clips` in `rig ctl status`: how many, the selection, the replay and the last export.
    var clipsStatus: JSONValue {
        let time = now()
        let replayStatus: JSONValue = replay.map { replay in
            ["id": .string(replay.id), "position": .number(replay.clock.position(at: time)),
             "playing": .bool(replay.clock.isPlaying(at: time)), "full_screen": .bool(replay.fullScreen),
             "shown": .optional(replay.pictures.shown.map { "\($0.index)" }), "failure": .optional(replay.failure),
             "sound_shift_ms": replay.soundShift.map { .number(($0 * 1000).rounded()) } ?? .null]
        } ?? .null
        let export: JSONValue = clips.export.map { export in
            ["id": .string(export.id), "to": .string(export.destination), "state": .string(export.state.rawValue),
             "fraction": export.fraction.map { .number($0) } ?? .null]
        } ?? .null
        return ["count": .int(clips.clips.count), "list": .string(console.state.clipList.rawValue),
                "selected": .optional(console.state.selectedClip), "replay": replayStatus, "export": export]
    }

    /// A playing replay needs every vblank until its end.
    func replayIsAnimating(at time: Double) -> Bool {
        guard let replay, console.state.screen == .clips, replay.failure == nil else { return false }
        return replay.clock.isPlaying(at: time)
    }

    /// The Clips screen shown (true) or left (false): a replay ends with the screen.
    func clipsScreenShown(_ shown: Bool) {
        if shown {
            clipRequested(.refresh)
            selectClipIfNeeded()
        } else {
            closeReplay()
        }
    }
}
