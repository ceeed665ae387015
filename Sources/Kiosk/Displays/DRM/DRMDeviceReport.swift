import Stage

/// The DRM part of `rig devices`: every card, its connectors, whether a monitor is
/// there and the modes it offers, with the names rig.toml takes.
enum DRMDeviceReport {
    static func lines(directory: String = "/dev/dri") -> [String] {
        let paths = DRMCard.devicePaths(directory: directory)
        if paths.isEmpty { return ["no DRM cards in \(directory) (no GPU driver loaded?)"] }
        var lines: [String] = []
        for path in paths {
            do {
                let card = try DRMCard(path: path, allowAtomic: true, needsMaster: false)
                lines.append("\(path): \(card.driverName), \(card.atomic ? "atomic" : "legacy only")"
                             + (card.monotonicTimestamps ? "" : ", no monotonic timestamps"))
                for connector in try card.connectors() {
                    lines.append("  \(connector.name): " + (connector.connected ? "connected" : "disconnected"))
                    if connector.connected { lines.append("    modes: " + modeList(connector.modes)) }
                }
            } catch {
                lines.append("\(path): \(error)")
            }
        }
        return lines
    }

    /// Distinct modes, largest first, the preferred one marked with `*`.
    static func modeList(_ modes: [KernelMode]) -> String {
        var seen = Set<String>()
        var names: [String] = []
        for mode in modes {
            let name = "\(mode.videoMode)" + (mode.preferred ? "*" : "")
            if seen.insert(name).inserted { names.append(name) }
        }
        return names.joined(separator: " ")
    }
}
