import Foundation
import JSON
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
    /// What the console changes when no console action asked (a store callback, a take
    /// ended, `rig ctl`): there is no caller to return it to, so the stage wires this port.
    var applyToConsole: (ConsoleCommand) -> Void = { _ in }

    init(console: ConsoleController, now: @escaping () -> Double) {
        self.console = console
        self.now = now
        player = ClipPlayer(now: now)
    }

    /// The store's list read again (a take ended, an export moved on, a game's media went):
    /// the console's selection follows what is listed.
    package func refresh() {
        reread()
        applyToConsole(.change(keepSelection))
    }

    /// The store's list read again; a replay whose clip is gone closes.
    private func reread() {
        listing = store.listing(exporting: consoleExport, currentGame: currentGame())
        if let replay, !listing.clips.contains(where: { $0.id == replay.id }) { close() }
        console.clipsChanged()
    }

    /// The selection stays on a clip listed in the chosen list, else moves to its first row.
    private func keepSelection(in state: inout ConsoleState) {
        let rows = listing.rows(state.clipList)
        guard !rows.contains(where: { $0.id == state.selectedClip }) else { return }
        state.selectedClip = rows.first?.id
    }

    /// The Clips screen shown (true: the list is read, the selection follows it) or left
    /// (false: a replay ends with the screen).
    func screenShown(_ shown: Bool) -> ConsoleCommand {
        guard shown else {
            close()
            return .none
        }
        reread()
        return .change(keepSelection)
    }

    // MARK: the console's controls

    /// A Clips control activated (click, tap, Enter) or a key's meaning, as the console
    /// stands in `state`: what the console changes for it. Escape with nothing to close
    /// goes `back`.
    func widget(_ id: WidgetID, state: ConsoleState, back: ConsoleCommand) -> ConsoleCommand {
        let selected = listing.rows(state.clipList).first { $0.id == state.selectedClip }
        switch id {
        case "clips:list:game", "clips:list:all":
            let list: ClipList = id.hasSuffix("game") ? .currentGame : .allSaved
            return .change { [self] in $0.clipList = list; keepSelection(in: &$0) }
        case "clips:next", "clips:previous":
            let rows = listing.rows(state.clipList)
            guard !rows.isEmpty else { return .none }
            let index = rows.firstIndex { $0.id == state.selectedClip } ?? -1
            let next = rows[min(max(index + (id.hasSuffix("next") ? 1 : -1), 0), rows.count - 1)].id
            return .change { $0.selectedClip = next; $0.focus = "clip:" + next }
        case "clips:replay":
            return Self.notice(ifUnopened: selected.flatMap(open))
        case "clips:play":
            return Self.notice(ifUnopened: toggle(selected, at: now()))
        case "clips:stop":
            close()
        case "clips:full":
            guard let replay else { return .none }
            player.setFullScreen(!replay.fullScreen)
            console.clipsChanged()
        case "clips:escape":
            if replay?.fullScreen == true {
                player.setFullScreen(false)
                console.clipsChanged()
            } else if replay != nil {
                close()
            } else {
                return back
            }
        case "clips:delete":
            guard let clip = selected else { return .none }
            return .change { $0.dialog = .confirmDeleteClip(id: clip.id, title: clip.displayName); $0.focus = "dialog:cancel" }
        case "clips:retry":
            guard let clip = selected else { return .none }
            let notice = switch store.retryExport(clip.id) {
            case .success: "Making the export of \(clip.displayName) again…"
            case let .failure(refusal): "Not retried: \(refusal)"
            }
            reread()
            return .change { [self] in $0.notice = notice; keepSelection(in: &$0) }
        case "clips:eject":
            reread()
            let notice: String? = switch StickControl.stickToEject(listing).flatMap({ store.eject($0.label) }) {
            case .success: nil
            case let .failure(refusal): "Not ejected: \(refusal)"
            }
            reread()
            return .change { [self] in $0.notice = notice; keepSelection(in: &$0) }
        case "clips:export":
            guard let clip = selected else { return .none }
            reread()
            return .change { [self] in
                keepSelection(in: &$0)
                $0.dialog = .exportClip(id: clip.id, title: clip.displayName)
                $0.focus = "dialog:cancel"
            }
        case "dialog:confirm":
            guard case let .confirmDeleteClip(clipID, _) = state.dialog else { return .none }
            if replay?.id == clipID { close() }
            let notice = delete(clipID)
            return .change { [self] in $0.dialog = nil; $0.focus = nil; $0.notice = notice; keepSelection(in: &$0) }
        default:
            if id.hasPrefix("dialog:destination:"), case let .exportClip(clipID, _) = state.dialog,
               let index = Int(id.dropFirst("dialog:destination:".count)), listing.destinations.indices.contains(index) {
                let notice = export(clipID, to: listing.destinations[index].path)
                return .change { [self] in
                    $0.dialog = nil
                    $0.focus = "clip:" + clipID
                    $0.notice = notice
                    keepSelection(in: &$0)
                }
            } else if id.hasPrefix("clip:") {
                // A clip row activated (a click on the selected row, Enter on a focused one):
                // focusing it selected it, so this replays it.
                let clipID = String(id.dropFirst("clip:".count))
                let unopened = listing.rows(state.clipList).first { $0.id == clipID }.flatMap(open)
                return .change {
                    $0.selectedClip = clipID
                    $0.focus = id
                    if let unopened { $0.notice = unopened }
                }
            }
        }
        return .none
    }

    /// Why a replay did not open, as the console's notice (nil: it opened, the notice stays).
    static func notice(ifUnopened reason: String?) -> ConsoleCommand {
        guard let reason else { return .none }
        return .change { $0.notice = reason }
    }

    /// Deletes a clip and reads the list again: the console's notice.
    private func delete(_ id: String) -> String {
        defer { reread() }
        switch store.delete(id) {
        case .success:
            KioskLog.notice("deleted clip \(id) from the console")
            return "Deleted \(id)"
        case let .failure(refusal):
            return "Not deleted: \(refusal)"
        }
    }

    /// Starts an export and reads the list again: the console's notice (nil: it started).
    private func export(_ id: String, to folder: String) -> String? {
        defer { reread() }
        switch store.export(id, to: folder) {
        case .success:
            consoleExport = id
            return nil
        case let .failure(refusal):
            return "Not exported: \(refusal)"
        }
    }

    // MARK: the replay

    /// Opens `clip` for replay, playing from the top; or says why it cannot, for the
    /// console's notice.
    package func open(_ clip: ClipSummary) -> String? {
        guard clip.hasMedia else { return "“\(clip.displayName)” has no video any more (removed by retention)." }
        player.open(clip)
        console.clipsChanged()
        return nil
    }

    /// Play or pause; with no replay open, `selected` opens (or why it cannot).
    private func toggle(_ selected: ClipSummary?, at time: Double) -> String? {
        guard replay != nil else { return selected.flatMap(open) }
        player.toggle(at: time)
        console.clipsChanged()
        return nil
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

    // MARK: `rig ctl clips` and `rig ctl media`

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
            applyToConsole(.show(.clips))
            applyToConsole(.change { $0.clipList = .allSaved; $0.selectedClip = clip.id })
            applyToConsole(Self.notice(ifUnopened: open(clip)))
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
}
