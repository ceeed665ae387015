import CSDL
import Stage

/// Both displays as windows on a desktop, through SDL2: "inner (operator)" and
/// "outer (talent)", each the size rig.toml gives the display, scaled down together
/// to fit the screen. The same delegate draws them as on DRM and headless; frames are
/// paced on the screen's refresh (a vblank grid on the loop's clock, as headless does).
///
/// SDL's video calls must come from one thread, and here that is the event loop's:
/// the X connection's descriptor is a reader on the loop, and each time it is readable
/// (and after every present, which may read events into Xlib's queue) SDL's queue is
/// pumped and drained in full, so no event waits in a queue poll() cannot see. On a
/// video driver without that descriptor a short timer pumps instead.
///
/// Why SDL2 (Debian 12's 2.26) rather than X11 or Wayland directly: one small API gives
/// windows on both (natively, or XWayland), scaled uploads (GL where there is one, its
/// software renderer where not), keys by their place on the keyboard, mouse and touch.
/// Xlib alone would need XShm and XInput2 for the same and would not be native on
/// Wayland; Wayland alone needs generated xdg-shell code, shm pools and libdecor, and
/// would not run on X11 at all.
///
/// Closing the outer window is the outer display going away (unavailable, as an
/// unplugged monitor); closing the inner one quits the kiosk (`onQuit`).
final class WindowBackend: DisplayBackend, DisplayInputSource {
    weak var delegate: (any DisplayBackendDelegate)?
    /// The windows' keyboard, mouse and touch, for `WindowInput`.
    var onInput: ((WindowInputEvent) -> Void)?
    /// The operator closed the inner window.
    var onQuit: (() -> Void)?

    /// A display's window and the pixels drawn for it (the display's own size; SDL
    /// scales them into the window).
    private struct Surface {
        var size: WindowLayout.Size
        var window: SDLWindow?
        var frame: HeadlessFramebuffer
        var note: String?
    }

    private let loop: EventLoop
    private let log: (String) -> Void
    private let forcedScale: Double?
    private var surfaces: [DisplayRole: Surface] = [:]
    private var frames: [DisplayRole: FrameScheduler] = [:]
    private var statuses: [DisplayRole: DisplayStatus] = [:]
    private var video: SDLVideo?
    private var layout = WindowLayout(inner: .init(width: 1, height: 1), outer: nil, screen: nil)
    private var reader: EventLoop.SourceID?
    private var pumpTimer: EventLoop.TimerID?
    /// Which window each mouse button went down in: the release belongs there too.
    private var pressedIn: [UInt8: DisplayRole] = [:]

    /// `connectors`: rig.toml's connector names, so the windows read as the rig's
    /// displays do ("auto" becomes "window-inner" and "window-outer").
    init(sizes: [DisplayRole: (width: Int, height: Int)], connectors: [DisplayRole: String] = [:],
         forcedScale: Double? = nil, loop: EventLoop, log: @escaping (String) -> Void) {
        self.loop = loop
        self.log = log
        self.forcedScale = forcedScale
        for (role, size) in sizes {
            let size = WindowLayout.Size(width: size.width, height: size.height)
            let connector = connectors[role].flatMap { $0 == DisplayConfiguration.automatic ? nil : $0 } ?? "window-\(role)"
            surfaces[role] = Surface(size: size, frame: HeadlessFramebuffer(width: size.width, height: size.height))
            statuses[role] = DisplayStatus(connector: connector)
        }
    }

    var statusFacts: [String: String] {
        var facts = ["window": video?.driver ?? "closed", "window_scale": "\(layout.scale)"]
        if let renderer = surfaces[.inner]?.window?.rendererName { facts["window_renderer"] = renderer }
        return facts
    }

    // MARK: DisplayBackend

    func start() throws {
        let video = try SDLVideo(clock: loop.clock)
        self.video = video
        guard let inner = surfaces[.inner]?.size else { return }
        layout = WindowLayout(inner: inner, outer: surfaces[.outer]?.size, screen: video.usableScreen, forced: forcedScale)
        var x = WindowLayout.margin
        var modes: [DisplayRole: VideoMode] = [:]
        for role in DisplayRole.allCases {
            guard let surface = surfaces[role] else { continue }
            let size = layout.windowSize(for: surface.size)
            let window = try SDLWindow(role: role, display: surface.size, size: size, x: Int32(x), y: Int32(WindowLayout.margin),
                                       title: WindowLayout.title(role, display: surface.size, scale: layout.scale,
                                                                 note: surface.note))
            x += size.width + WindowLayout.margin
            modes[role] = VideoMode(width: surface.size.width, height: surface.size.height,
                                    refreshMillihertz: video.refreshMillihertz(displayIndex: window.displayIndex))
            surfaces[role]?.window = window
            log("displays: \(role) window \(size.width)x\(size.height) for \(modes[role].map { "\($0)" } ?? "") "
                + "(\(video.driver), \(window.rendererName))")
        }
        let fd = surfaces[.inner]?.window?.x11ConnectionFD ?? -1
        if fd >= 0 {
            reader = loop.addReader(fd: fd, name: "window events") { [weak self] in self?.pump() }
        } else {
            log("displays: \(video.driver) gives no event descriptor; pumping SDL's events every 10 ms")
            pumpEvery(0.010)
        }
        for role in DisplayRole.allCases {
            guard var status = statuses[role], let mode = modes[role] else { continue }
            status.connected = true
            status.available = true
            status.mode = mode
            statuses[role] = status
            let scheduler = FrameScheduler(role: role, loop: loop, owner: self)
            frames[role] = scheduler
            scheduler.modeset(period: mode.period)
            delegate?.displayStatusChanged(role, status)
        }
        pump()
    }

    func requestFrame(_ role: DisplayRole) { frames[role]?.requestFrame() }
    func requestFrameNow(_ role: DisplayRole) { frames[role]?.requestFrameNow() }
    func prepareFrame(_ role: DisplayRole, for time: Double) { frames[role]?.prepareFrame(for: time) }

    func setEnabled(_ enabled: Bool, for role: DisplayRole) {
        guard var status = statuses[role], status.enabled != enabled else { return }
        status.enabled = enabled
        statuses[role] = status
        frames[role]?.enabledChanged()
        delegate?.displayStatusChanged(role, status)
    }

    func status(of role: DisplayRole) -> DisplayStatus {
        statuses[role] ?? DisplayStatus(connector: "window-\(role)")
    }

    func shutdown() {
        for role in DisplayRole.allCases {
            frames[role]?.halt()
            statuses[role]?.connected = false
            statuses[role]?.available = false
        }
        if let pumpTimer { loop.cancel(pumpTimer) }
        pumpTimer = nil
        if let reader { loop.remove(reader) }
        reader = nil
        for role in surfaces.keys { surfaces[role]?.window = nil }
        video = nil
    }

    /// The outer window closed by the kiosk itself (`rig run --snapshot-dir --unplugged`).
    func simulateUnplug(_ role: DisplayRole) { windowClosed(role) }

    /// A word after the window's title ("no camera"); nil removes it.
    var ownInput: (any DisplayInputSource)? { self }
    var stopsWhenDisplaysFail: Bool { true }

    func setNote(_ note: String?, for role: DisplayRole) {
        guard let surface = surfaces[role], surface.note != note else { return }
        surfaces[role]?.note = note
        surface.window?.setTitle(WindowLayout.title(role, display: surface.size,
                                                    scale: surface.window?.viewport.scale ?? layout.scale, note: note))
    }

    // MARK: Events

    private func pumpEvery(_ interval: Double) {
        pumpTimer = loop.addTimer(at: loop.clock() + interval) { [weak self] in
            self?.pump()
            self?.pumpEvery(interval)
        }
    }

    /// Everything SDL has, now: reads the connection and empties SDL's queue.
    private func pump() {
        guard let video else { return }
        SDL_PumpEvents()
        var event = SDL_Event()
        while self.video != nil, SDL_PollEvent(&event) != 0 {
            handle(event, video: video)
        }
    }

    private func role(ofWindow id: UInt32) -> DisplayRole? {
        DisplayRole.allCases.first { surfaces[$0]?.window?.id == id }
    }

    private func handle(_ event: SDL_Event, video: SDLVideo) {
        let time = video.monotonic(ticks: event.common.timestamp)
        switch SDL_EventType(event.type) {
        case SDL_QUIT:
            onQuit?()
        case SDL_WINDOWEVENT:
            guard let role = role(ofWindow: event.window.windowID) else { return }
            windowEvent(SDL_WindowEventID(UInt32(event.window.event)), role: role)
        case SDL_KEYDOWN, SDL_KEYUP:
            guard event.key.repeat == 0 else { return }
            onInput?(.key(scancode: event.key.keysym.scancode.rawValue, pressed: event.type == SDL_KEYDOWN.rawValue,
                          time: time))
        case SDL_MOUSEMOTION:
            guard event.motion.which != rig_sdl_touch_mouseid, let role = role(ofWindow: event.motion.windowID),
                  let point = displayPoint(role, Double(event.motion.x), Double(event.motion.y)) else { return }
            // A drag that left the window it started in stays that window's.
            let owner = pressedIn.values.first ?? role
            guard owner == role else { return }
            onInput?(.pointer(role, x: point.x, y: point.y, button: nil, time: time))
        case SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP:
            let button = event.button
            guard button.which != rig_sdl_touch_mouseid, let over = role(ofWindow: button.windowID) else { return }
            let pressed = event.type == SDL_MOUSEBUTTONDOWN.rawValue
            let role = pressed ? over : (pressedIn[button.button] ?? over)
            if pressed { pressedIn[button.button] = role } else { pressedIn[button.button] = nil }
            guard let point = displayPoint(role, Double(button.x), Double(button.y)) else { return }
            onInput?(.pointer(role, x: point.x, y: point.y, button: (button.button, pressed), time: time))
        case SDL_FINGERDOWN, SDL_FINGERMOTION, SDL_FINGERUP:
            let finger = event.tfinger
            guard let role = role(ofWindow: finger.windowID), let window = surfaces[role]?.window else { return }
            let viewport = window.viewport
            let windowWidth = viewport.width + 2 * viewport.x, windowHeight = viewport.height + 2 * viewport.y
            let point = viewport.displayPoint(windowX: Double(finger.x) * windowWidth, windowY: Double(finger.y) * windowHeight)
            let phase: TouchPhase = event.type == SDL_FINGERDOWN.rawValue ? .down
                : event.type == SDL_FINGERUP.rawValue ? .up : .motion
            onInput?(.touch(role, phase: phase, slot: Int32(truncatingIfNeeded: finger.fingerId), x: point.x, y: point.y,
                            time: time))
        default:
            break
        }
    }

    private func displayPoint(_ role: DisplayRole, _ x: Double, _ y: Double) -> (x: Double, y: Double)? {
        surfaces[role]?.window?.viewport.displayPoint(windowX: x, windowY: y)
    }

    private func windowEvent(_ kind: SDL_WindowEventID, role: DisplayRole) {
        switch kind {
        case SDL_WINDOWEVENT_CLOSE:
            windowClosed(role)
        case SDL_WINDOWEVENT_EXPOSED:
            surfaces[role]?.window?.redraw()
        case SDL_WINDOWEVENT_SIZE_CHANGED:
            guard let surface = surfaces[role], let window = surface.window else { return }
            window.updateViewport()
            window.setTitle(WindowLayout.title(role, display: surface.size, scale: window.viewport.scale, note: surface.note))
            window.redraw()
        case SDL_WINDOWEVENT_FOCUS_LOST:
            // Keys held now are released where the kiosk cannot hear it.
            onInput?(.keyboardLost)
        default:
            break
        }
    }

    private func windowClosed(_ role: DisplayRole) {
        guard role == .outer else {
            log("displays: the inner window was closed; stopping")
            onQuit?()
            return
        }
        guard var status = statuses[role], status.available else { return }
        status.connected = false
        status.available = false
        statuses[role] = status
        frames[role]?.disconnect()
        surfaces[role]?.window = nil
        log("displays: the outer window was closed; the outer display is unavailable")
        delegate?.displayStatusChanged(role, status)
    }
}

extension WindowBackend: FrameSchedulerOwner {
    func drawBuffer(for role: DisplayRole) -> (any FrameBuffer)? {
        surfaces[role]?.window == nil ? nil : surfaces[role]?.frame
    }

    func drawFrame(for role: DisplayRole, into target: FrameTarget) -> Bool {
        delegate?.drawFrame(for: role, into: target) ?? false
    }

    /// The window system shows the frame at the refresh it was made for, or, when
    /// composing and presenting took longer than that, as soon as the present returned:
    /// a late frame counts as missed vblanks, as on DRM.
    func show(_ role: DisplayRole, target: Double) -> FrameScheduler.Showing {
        guard let surface = surfaces[role], let window = surface.window else { return .nowhere }
        window.present(pixels: surface.frame.pixels, stride: surface.frame.stride)
        let shown = max(target, loop.clock())
        // Presenting may have read events into Xlib's queue, where poll() cannot see them;
        // they are read once the scheduler counts this frame as on its way.
        loop.addTimer(at: loop.clock()) { [weak self] in self?.pump() }
        return .at(shown)
    }

    func presented(_ role: DisplayRole, _ stamp: FlipStamp) {
        if let pacer = frames[role]?.pacer { statuses[role]?.recordFlip(stamp, pacer) }
        delegate?.framePresented(role, stamp)
    }
}
