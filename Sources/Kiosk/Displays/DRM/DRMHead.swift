import Stage

/// One display driven over DRM: which connector, CRTC and plane it has now, its two
/// buffers and its frame scheduler. The backend moves it between unavailable and available.
final class DRMHead {
    let role: DisplayRole
    /// The connector in use: as configured, or the one "auto" resolved to.
    var connectorName: String
    /// Configured as "auto": the backend picks a connected connector.
    let automatic: Bool
    let modeRequest: DisplayMode

    var connectorID: UInt32?
    var crtcID: UInt32?
    var crtcIndex: Int?
    var planeID: UInt32?
    var mode: KernelMode?
    var modeBlob: ModeBlob?
    /// The CRTC's state before the kiosk first took it, for a clean exit.
    var saved: SavedCrtcState?

    var buffers: [DumbFramebuffer] = []
    /// The buffer on screen (or queued to be); the other one is drawn into.
    var front = 0
    var status: DisplayStatus
    /// When this head composes which frame (set by the backend, its owner).
    var frames: FrameScheduler!
    /// The connector went away while a flip was queued: turn off when it completes.
    var disableWhenFlipped = false

    init(role: DisplayRole, connectorName: String, modeRequest: DisplayMode) {
        self.role = role
        self.connectorName = connectorName
        automatic = connectorName == DisplayConfiguration.automatic
        self.modeRequest = modeRequest
        status = DisplayStatus(connector: connectorName)
    }

    var backBuffer: DumbFramebuffer? {
        buffers.count == 2 ? buffers[1 - front] : nil
    }
}
