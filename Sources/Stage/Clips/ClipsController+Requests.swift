import JSON

/// `rig ctl clips` and `rig ctl media`, answered from the same list, store and replay as
/// the Clips screen.
extension ClipsController {
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
