import Stage

/// What the displays are asked to be, from rig.toml's `[displays]` table (the lead's
/// config parser fills it; `rig run` flags can too).
struct DisplayConfiguration: Equatable, Sendable {
    /// A connector name that lets the kiosk pick: the first connected connector for the
    /// inner display, the next one for the outer.
    static let automatic = "auto"

    var innerConnector = "Virtual-1"
    var outerConnector = "Virtual-2"
    var innerMode = DisplayMode.preferred
    var outerMode = DisplayMode.preferred
    /// `[displays] legacy = true`: skip atomic modesetting even where it is offered.
    var forceLegacy = false
    /// A device path, or nil to find the card that has the connectors.
    var devicePath: String?

    func connector(for role: DisplayRole) -> String {
        role == .inner ? innerConnector : outerConnector
    }

    func mode(for role: DisplayRole) -> DisplayMode {
        role == .inner ? innerMode : outerMode
    }
}
