import Stage

/// A display backend, in the spirit of wlroots' backend interface: the DRM/KMS,
/// headless and window backends sit behind it, and the app never knows which it has:
/// what only some can do they declare (`ownInput`, `stopsWhenDisplaysFail`, `setNote`).
/// Everything runs on the event loop thread.
protocol DisplayBackend: AnyObject {
    var delegate: (any DisplayBackendDelegate)? { get set }

    /// Opens the devices, modesets what is connected and registers with the loop.
    /// Missing connectors are not an error: they become available when they appear.
    func start() throws

    /// The app's state changed: ask the delegate for a frame on `role` at the next
    /// vblank the display can make. Cheap to call often; frames are coalesced.
    func requestFrame(_ role: DisplayRole)

    /// A frame is wanted at the first vblank the display can make, composed as soon
    /// as its buffer is free rather than a repaint window before that vblank: for a
    /// frame whose presentation is measured (the game's cue), where a compose that
    /// takes longer than the window must not cost a whole refresh.
    func requestFrameNow(_ role: DisplayRole)

    /// Draws `role`'s frame for `time` into the free buffer as soon as the display is
    /// idle and holds it unflipped (`FrameTarget.preparing`). The next requested frame
    /// that finds it still right flips it without drawing (`holdsPrepared`); any other
    /// frame draws over it. For a frame whose content is known before it is due (the
    /// cue at the speech's end), so its compose is not between the request and the flip.
    func prepareFrame(_ role: DisplayRole, for time: Double)

    /// The operator's toggle (seed 001): a display shows content only when it is both
    /// available (the system's decision) and enabled (the operator's).
    func setEnabled(_ enabled: Bool, for role: DisplayRole)

    func status(of role: DisplayRole) -> DisplayStatus

    /// Leaves the screens clean: previous CRTC state restored or planes disabled.
    func shutdown()

    /// What this kind of backend adds to the status file (DRM: the KMS path taken).
    var statusFacts: [String: String] { get }

    /// What `role` shows now, as a PPM image, when the backend holds its pixels in
    /// memory (headless); nil for scanout the kiosk cannot read back.
    func shownImagePPM(_ role: DisplayRole) -> [UInt8]?

    /// The display goes away as an unplugged monitor does, where the backend can make
    /// that happen itself (headless: the snapshots of the virtual rig's hotplug
    /// tests). A backend with real monitors ignores it: they are unplugged by hand.
    func simulateUnplug(_ role: DisplayRole)

    /// Input that arrives through the displays themselves (the desktop windows' keys,
    /// mouse and touches, and the inner window closed); nil for a rig's monitors.
    var ownInput: (any DisplayInputSource)? { get }

    /// The kiosk stops when these displays cannot start (windows that do not open show
    /// nobody anything); a rig's kiosk comes up without its monitors and says why.
    var stopsWhenDisplaysFail: Bool { get }

    /// A word on the display where its user reads it (a window's title: "no camera").
    func setNote(_ note: String?, for role: DisplayRole)
}

/// Input a backend's displays bring with them (`WindowBackend`'s windows).
protocol DisplayInputSource: AnyObject {
    var onInput: ((WindowInputEvent) -> Void)? { get set }
    /// The user closed the display that stands for the whole kiosk (the inner window).
    var onQuit: (() -> Void)? { get set }
}

extension DisplayBackend {
    func requestFrameNow(_ role: DisplayRole) { requestFrame(role) }
    func prepareFrame(_ role: DisplayRole, for time: Double) {}
    var statusFacts: [String: String] { [:] }
    func shownImagePPM(_ role: DisplayRole) -> [UInt8]? { nil }
    func simulateUnplug(_ role: DisplayRole) {}
    var ownInput: (any DisplayInputSource)? { nil }
    var stopsWhenDisplaysFail: Bool { false }
    func setNote(_ note: String?, for role: DisplayRole) {}

    /// Every display's status as the backend reports it now.
    var statuses: [DisplayRole: DisplayStatus] {
        Dictionary(uniqueKeysWithValues: DisplayRole.allCases.map { ($0, status(of: $0)) })
    }
}

/// The app side of a backend: draws frames and hears about availability.
protocol DisplayBackendDelegate: AnyObject {
    /// Draw the whole frame for `role` into `target`. Return false when nothing changed
    /// since the last frame on this display (nothing is flipped then), unless
    /// `target.mustDraw` says the buffer holds nothing worth showing.
    func drawFrame(for role: DisplayRole, into target: FrameTarget) -> Bool

    /// Availability, mode or enabled changed (not called for every flip).
    func displayStatusChanged(_ role: DisplayRole, _ status: DisplayStatus)

    /// A frame reached the glass: the kernel's vblank time and sequence. The app
    /// learns here what was really shown when (tap latency, camera latency) and asks
    /// for the next frame while something moves.
    func framePresented(_ role: DisplayRole, _ stamp: FlipStamp)

    /// Something the operator must fix (a misnamed connector); shown on the inner
    /// display when it is up, as well as in the journal.
    func displayProblem(_ problem: DisplaysError)
}

extension DisplayBackendDelegate {
    func framePresented(_ role: DisplayRole, _ stamp: FlipStamp) {}
    func displayProblem(_ problem: DisplaysError) {}
}
