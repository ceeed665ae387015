import Stage

/// Picks the mode a display is set to: by flag and by name, never `modes[0]` — a
/// virtio-gpu connector forced on lists 5120x2160 first and flags none preferred.
enum ModeChooser {
    struct Choice {
        let index: Int
        /// Set when the request could not be met and another mode was taken.
        let warning: String?
    }

    static func choose(_ request: DisplayMode, among modes: [VideoMode], preferred: [Bool],
                       connector: String) -> Choice? {
        guard !modes.isEmpty else { return nil }
        let fallback = fallbackIndex(modes, preferred)
        switch request {
        case .preferred:
            return Choice(index: fallback, warning: nil)
        case let .size(w, h, hz):
            let sized = modes.indices.filter { modes[$0].width == w && modes[$0].height == h }
            let matching = hz.map { want in
                sized.filter { abs(modes[$0].refresh - Double(want)) < 0.5 }
            } ?? sized
            // Among equals, the preferred one, then the highest refresh.
            if let best = matching.max(by: { rank($0, modes, preferred) < rank($1, modes, preferred) }) {
                return Choice(index: best, warning: nil)
            }
            return Choice(index: fallback, warning: "\(connector) has no mode \(request); using \(modes[fallback]) instead")
        }
    }

    /// The preferred mode, or the largest (then fastest) if none is flagged.
    private static func fallbackIndex(_ modes: [VideoMode], _ preferred: [Bool]) -> Int {
        if let flagged = modes.indices.first(where: { preferred.indices.contains($0) && preferred[$0] }) {
            return flagged
        }
        return modes.indices.max { a, b in
            let areaA = modes[a].width * modes[a].height, areaB = modes[b].width * modes[b].height
            return areaA != areaB ? areaA < areaB : modes[a].refreshMillihertz < modes[b].refreshMillihertz
        } ?? 0
    }

    private static func rank(_ i: Int, _ modes: [VideoMode], _ preferred: [Bool]) -> (Int, Int) {
        ((preferred.indices.contains(i) && preferred[i]) ? 1 : 0, modes[i].refreshMillihertz)
    }
}
