import CSDL

/// SDL's video subsystem, process-wide: one owner, created and dropped on the event
/// loop thread, which is the only thread that ever calls SDL (SDL's video functions
/// must stay on one thread). Deinit shuts SDL down.
final class SDLVideo {
    /// Milliseconds of SDL's event timestamps and CLOCK_MONOTONIC seconds at one moment,
    /// so events carry times on the kiosk's one clock.
    private let ticksAtStart: UInt64
    private let monotonicAtStart: Double

    init(clock: () -> Double) throws(DisplaysError) {
        // The kiosk's SignalWatcher owns SIGINT and SIGTERM; SDL must not install its own.
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
        // A desktop's screensaver may still blank a screen the talent reads from.
        SDL_SetHint(SDL_HINT_VIDEO_ALLOW_SCREENSAVER, "0")
        // Closing one window is the outer display going away, not "quit".
        SDL_SetHint(SDL_HINT_QUIT_ON_LAST_WINDOW_CLOSE, "0")
        SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        // Touches on the inner window arrive as touches; SDL's mouse copies of them are dropped.
        SDL_SetHint(SDL_HINT_MOUSE_TOUCH_EVENTS, "0")
        // A desktop's windows only: SDL's KMSDRM driver would take the monitors from the
        // console, which is the DRM backend's job. SDL_VIDEODRIVER still picks.
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11,wayland")
        if SDL_InitSubSystem(SDL_INIT_VIDEO) != 0 {
            throw .window("SDL cannot open the desktop (\(Self.lastError)); is $DISPLAY or $WAYLAND_DISPLAY set?")
        }
        SDL_StopTextInput()
        ticksAtStart = SDL_GetTicks64()
        monotonicAtStart = clock()
    }

    deinit { SDL_QuitSubSystem(SDL_INIT_VIDEO) }

    /// Which of SDL's video drivers it picked ("x11", "wayland").
    var driver: String { SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none" }

    /// An event's SDL timestamp on CLOCK_MONOTONIC.
    func monotonic(ticks: UInt32) -> Double {
        monotonicAtStart + (Double(ticks) - Double(ticksAtStart)) / 1000
    }

    /// The usable area of the first screen (without panels and docks), if SDL knows it.
    var usableScreen: WindowLayout.Size? {
        var rect = SDL_Rect()
        guard SDL_GetDisplayUsableBounds(0, &rect) == 0, rect.w > 0, rect.h > 0 else { return nil }
        return WindowLayout.Size(width: Int(rect.w), height: Int(rect.h))
    }

    /// The refresh of the screen a window is on, in millihertz; 60 Hz when unknown
    /// (Xvfb and some drivers report 0).
    func refreshMillihertz(displayIndex: Int32) -> Int {
        var mode = SDL_DisplayMode()
        guard SDL_GetCurrentDisplayMode(max(displayIndex, 0), &mode) == 0, mode.refresh_rate > 0 else { return 60_000 }
        return Int(mode.refresh_rate) * 1000
    }

    static var lastError: String { String(cString: SDL_GetError()) }
}
