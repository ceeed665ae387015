/// The USB sticks in the share sheet as Eject and `rig ctl media` use them: which stick
/// the console's Eject means, the requests and their replies. The store does the eject
/// (the kiosk asks systemd); how it ends comes back with the store's listing.
enum StickControl {
    /// `rig ctl media list` and `rig ctl media eject NAME`.
    static func request(action: String, name: String?, listing: ClipsInput, store: any ClipStorePort) -> ControlReply {
        switch action {
        case "list":
            return .success(["media": .array(listing.destinations.map(json)), "eject": listing.eject.map(json) ?? .null])
        case "eject":
            switch store.eject(name ?? "") {
            case let .success(started): return .success(["eject": started])
            case let .failure(refusal): return .failure(refusal.description)
            }
        default:
            return .failure("media takes list or eject NAME")
        }
    }

    /// The stick the console's Eject means: the one the last export went to while it is
    /// still mounted, else the only stick the rig mounted. Several and no export to
    /// tell them apart: the operator names one with `rig ctl media eject NAME`.
    static func stickToEject(_ listing: ClipsInput) -> Result<ExportDestination, ClipRefusal> {
        let sticks = listing.destinations.filter(\.ejectable)
        if let export = listing.export,
           let target = sticks.first(where: { export.destination.hasPrefix($0.path + "/") }) {
            return .success(target)
        }
        switch sticks.count {
        case 0: return .failure(ClipRefusal("no USB stick is mounted"))
        case 1: return .success(sticks[0])
        default:
            return .failure(ClipRefusal("\(sticks.count) USB sticks are mounted ("
                                        + sticks.map(\.label).joined(separator: ", ") + "): rig ctl media eject NAME"))
        }
    }

    static func json(_ destination: ExportDestination) -> JSONValue {
        ["name": .string(destination.label), "title": .string(destination.name), "path": .string(destination.path),
         "kind": .string(destination.kind.rawValue), "read_only": .bool(destination.readOnly),
         "ejectable": .bool(destination.ejectable)]
    }

    static func json(_ eject: StickEjectProgress) -> JSONValue {
        ["name": .string(eject.name), "state": .string(eject.state.rawValue), "message": .optional(eject.message),
         "line": .string(eject.line)]
    }
}
