import Stage

/// Which connector, mode and CRTC each head gets: configured names checked against the
/// card, "auto" resolved to connected connectors, modes chosen by flag and name, and
/// CRTCs shared out so the two heads never contend for one.
enum ConnectorAssignment {
    /// A misnamed connector or a GPU that cannot drive both: reported, not fatal, so
    /// the other display still comes up and can show the message.
    static func problems(_ configuration: DisplayConfiguration, card: DRMCard) throws -> [DisplaysError] {
        let connectors = try card.connectors()
        let names = connectors.map(\.name)
        var problems: [DisplaysError] = []
        for role in DisplayRole.allCases {
            let name = configuration.connector(for: role)
            if name == DisplayConfiguration.automatic || names.contains(name) { continue }
            problems.append(.unknownConnector(role: role, name: name, existing: names))
        }
        // Two heads need two CRTCs that reach them; say so now rather than on a hotplug.
        let crtcCount = try card.resources().crtcs.count
        guard let inner = connectors.first(where: { $0.name == configuration.innerConnector }),
              let outer = connectors.first(where: { $0.name == configuration.outerConnector }) else { return problems }
        let feasible = (0..<crtcCount).contains { i in
            inner.canUse(crtcIndex: i) && (0..<crtcCount).contains { j in j != i && outer.canUse(crtcIndex: j) }
        }
        if !feasible { problems.append(.noCrtc(inner: inner.name, outer: outer.name)) }
        return problems
    }

    /// Gives each "auto" head that is not showing anything a connected connector the
    /// other head does not use: the first for the inner display, the next for the outer.
    static func resolveAutomatic(_ heads: [DisplayRole: DRMHead], connectors: [DRMConnector]) {
        let connected = connectors.filter { $0.connected && !$0.modes.isEmpty }.map(\.name)
        for role in DisplayRole.allCases {
            guard let head = heads[role], head.automatic, !head.status.available else { continue }
            let other = heads.values.first { $0 !== head }
            let otherName = other.map(\.connectorName)
            var candidates = connected.filter { $0 != otherName }
            if role == .outer, let innerName = otherName, let at = connected.firstIndex(of: innerName) {
                // The next connector after the inner one, wrapping round.
                candidates = Array(connected[(at + 1)...] + connected[..<at])
            }
            let pick = candidates.first ?? DisplayConfiguration.automatic
            if pick != head.connectorName {
                head.connectorName = pick
                head.status.connector = pick
            }
        }
    }

    static func mode(for head: DRMHead, on connector: DRMConnector, log: (String) -> Void) -> KernelMode? {
        let modes = connector.modes
        guard let choice = ModeChooser.choose(head.modeRequest, among: modes.map(\.videoMode),
                                              preferred: modes.map(\.preferred), connector: connector.name) else {
            return nil
        }
        if let warning = choice.warning { log("displays: \(warning)") }
        return modes[choice.index]
    }

    /// The CRTC for `connector`: the one it has if the other head does not use it,
    /// else the first free one that reaches it.
    static func crtc(for head: DRMHead, on connector: DRMConnector, card: DRMCard,
                     heads: [DisplayRole: DRMHead]) throws -> (UInt32, Int) {
        let crtcs = try card.resources().crtcs
        let taken = heads.values.filter { $0 !== head }.compactMap(\.crtcID)
        if let current = connector.currentCrtc(card: card), !taken.contains(current),
           let index = crtcs.firstIndex(of: current) {
            return (current, index)
        }
        if let index = crtcs.indices.first(where: { connector.canUse(crtcIndex: $0) && !taken.contains(crtcs[$0]) }) {
            return (crtcs[index], index)
        }
        let other = heads.values.first { $0 !== head }?.connectorName ?? "?"
        throw DisplaysError.noCrtc(inner: head.role == .inner ? head.connectorName : other,
                                   outer: head.role == .outer ? head.connectorName : other)
    }
}
