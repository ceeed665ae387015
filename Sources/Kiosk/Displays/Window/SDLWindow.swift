import CSDL
import Stage

/// One display as a desktop window: the SDL window, its renderer and the streaming
/// texture the display's frames are uploaded into. Destroys all three in deinit.
/// Used on the event loop thread only.
final class SDLWindow {
    let role: DisplayRole
    let display: WindowLayout.Size
    let id: UInt32
    private let window: OpaquePointer
    private let renderer: OpaquePointer
    private let texture: OpaquePointer
    private(set) var viewport: WindowViewport

    init(role: DisplayRole, display: WindowLayout.Size, size: WindowLayout.Size, x: Int32, y: Int32,
         title: String) throws(DisplaysError) {
        self.role = role
        self.display = display
        let flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        guard let window = SDL_CreateWindow(title, x, y, Int32(size.width), Int32(size.height), flags) else {
            throw .window("cannot open the \(role) window: \(SDLVideo.lastError)")
        }
        // No PRESENTVSYNC: a present that waits for the vblank would block the event loop
        // (and two windows on one thread would halve each other's rate); the backend
        // paces both on the screen's refresh instead, as DRM does on virtio-gpu.
        guard let renderer = SDL_CreateRenderer(window, -1, 0) ?? SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue) else {
            SDL_DestroyWindow(window)
            throw .window("cannot draw in the \(role) window: \(SDLVideo.lastError)")
        }
        guard let texture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_RGB888.rawValue,
                                              Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                              Int32(display.width), Int32(display.height)) else {
            SDL_DestroyRenderer(renderer)
            SDL_DestroyWindow(window)
            throw .window("cannot make a \(display.width)x\(display.height) picture for the \(role) window: \(SDLVideo.lastError)")
        }
        self.window = window
        self.renderer = renderer
        self.texture = texture
        id = SDL_GetWindowID(window)
        viewport = WindowViewport(display: display, window: size)
        updateViewport()
    }

    deinit {
        SDL_DestroyTexture(texture)
        SDL_DestroyRenderer(renderer)
        SDL_DestroyWindow(window)
    }

    var rendererName: String {
        var info = SDL_RendererInfo()
        guard SDL_GetRendererInfo(renderer, &info) == 0, let name = info.name else { return "unknown" }
        return String(cString: name)
    }

    var displayIndex: Int32 { SDL_GetWindowDisplayIndex(window) }

    /// The X connection's descriptor, or -1 on another video driver.
    var x11ConnectionFD: Int32 { rig_sdl_x11_fd(window) }

    func setTitle(_ title: String) { SDL_SetWindowTitle(window, title) }

    /// The window was resized (by the user or the desktop): letterbox the display anew.
    /// 1:1 pixels are copied unfiltered, so an unscaled window shows exactly the frame.
    func updateViewport() {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &w, &h)
        var logicalW: Int32 = 0, logicalH: Int32 = 0
        SDL_GetWindowSize(window, &logicalW, &logicalH)
        viewport = WindowViewport(display: display, window: WindowLayout.Size(width: Int(logicalW), height: Int(logicalH)))
        let output = WindowViewport(display: display, window: WindowLayout.Size(width: Int(w), height: Int(h)))
        SDL_SetTextureScaleMode(texture, output.scale == 1 ? SDL_ScaleModeNearest : SDL_ScaleModeLinear)
    }

    /// Uploads a frame and shows it.
    func present(pixels: UnsafeRawPointer, stride: Int) {
        SDL_UpdateTexture(texture, nil, pixels, Int32(stride))
        redraw()
    }

    /// Shows the last frame again (the window was exposed or resized).
    func redraw() {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &w, &h)
        let output = WindowViewport(display: display, window: WindowLayout.Size(width: Int(w), height: Int(h)))
        var target = SDL_Rect(x: Int32(output.x), y: Int32(output.y), w: Int32(output.width), h: Int32(output.height))
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        SDL_RenderClear(renderer)
        SDL_RenderCopy(renderer, texture, nil, &target)
        SDL_RenderPresent(renderer)
    }
}
