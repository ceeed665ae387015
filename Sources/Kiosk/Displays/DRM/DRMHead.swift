import Stage

/// One display driven over DRM: which connector, CRTC and plane it has now, its two
/// buffers and its pacing. The backend moves it between unavailable and available.
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
    var pacer = FramePacer(period: 1.0 / 60)
    var status: DisplayStatus

    var flipPending = false
    /// Inside the delegate's draw: a request made there is served after this frame.
    var composing = false
    var frameRequested = false
    /// The requested frame is composed as soon as the buffer is free (`requestFrameNow`).
    var frameRequestedNow = false
    /// A frame to draw ahead for this presentation time once idle (`prepareFrame`).
    var prepareFor: Double?
    /// The back buffer holds the frame drawn ahead, untouched since.
    var backHoldsPrepared = false
    /// The next frame must be drawn and shown whatever the delegate says.
    var mustDraw = true
    /// The screen currently shows content (not black for a disabled display).
    var showingContent = false
    var composeTimer: EventLoop.TimerID?
    /// A drawn frame waiting to be flipped again after EBUSY.
    var flipRetryTimer: EventLoop.TimerID?
    /// Gives up waiting for a flip's completion event (DRMBackend.watchFlip).
    var flipWatchdog: EventLoop.TimerID?
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
