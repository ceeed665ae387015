import Foundation
import Media
import Render

/// The Clips screen and `rig ctl clips` as the rig runs them: the list the store reads,
/// the selection, delete and export through the store, and the replay (ClipPlayer)
/// opened, paused and closed from the screen. The stage never touches a file: the
/// ports do.
package final class ClipsController {
    package var store: any ClipStorePort = NoClipStore()
    /// The replay itself: its clock, pictures and sound.
    package let player: ClipPlayer
    package var decoder: any ReplayDecoderPort {
        get { player.decoder }
        set { player.decoder = newValue }
    }
    package var sound: any SoundOutputPort {
        get { player.sound }
        set { player.sound = newValue }
    }
    /// The recordings as the store last listed them.
    package private(set) var listing = ClipsInput.none
    /// The clip being replayed on the Clips screen.
    package var replay: ClipReplay? { player.replay }
    /// The clip the console last exported: its progress shows on the screen.
    private var consoleExport: String?

    private let console: ConsoleController
    private let now: () -> Double
    /// Whether a game is open now (its clips are the Current game list).
    var currentGame: () -> String? = { nil }
    /// The inner display draws again.
    var innerChanged: () -> Void = {} {
        didSet { player.changed = innerChanged }
    }

    init(console: ConsoleController, now: @escaping () -> Double) {
        self.console = console
        self.now = now
        player = ClipPlayer(now: now)
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
            guard let replay else { return }
            player.setFullScreen(!replay.fullScreen)
            console.clipsChanged()
        case "clips:escape":
            if replay?.fullScreen == true {
                player.setFullScreen(false)
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
        player.open(clip)
        console.clipsChanged()
    }

    private func toggle(at time: Double) {
        guard replay != nil else {
            if let clip = selected { open(clip) }
            return
        }
        player.toggle(at: time)
        console.clipsChanged()
    }

    /// Closes the replay: the decoder stops, its lease goes, the sound stops.
    package func close() {
        guard replay != nil else { return }
        player.close()
        console.clipsChanged()
    }

    /// Pictures and sound (or the end, or a failure) from the decoder.
    func delivered(id: String, _ delivery: ClipDecoder.Delivery) {
        if player.delivered(id: id, delivery) { console.clipsChanged() }
    }

    /// The replay at a frame's presentation time, while the Clips screen shows.
    func shown(at time: Double) -> (shown: ClipReplay.Shown, picture: ReplayPicture?)? {
        console.state.screen == .clips ? player.shown(at: time) : nil
    }

    /// A playing replay on the Clips screen needs every vblank until its end.
    func isAnimating(at time: Double) -> Bool {
        console.state.screen == .clips && player.isPlaying(at: time)
    }

    /// `clips` in `rig ctl status`: how many, the selection, the replay and the last export.
    var status: JSONValue {
        let export: JSONValue = listing.export.map { export in
            ["id": .string(export.id), "to": .string(export.destination), "state": .string(export.state.rawValue),
             "fraction": export.fraction.map { .number($0) } ?? .null, "message": .optional(export.message)]
        } ?? .null
        return ["count": .int(listing.clips.count), "list": .string(console.state.clipList.rawValue),
                "selected": .optional(console.state.selectedClip), "replay": player.status, "export": export,
                "eject": listing.eject.map(StickControl.json) ?? .null]
    }
}
