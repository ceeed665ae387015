// SDL2 (Debian's libsdl2-dev): the window backend's windows, renderer and events.
#include <SDL.h>
#include <SDL_syswm.h>

// The X connection's fd, so the kiosk's poll() wakes when the server sends events.
// Xlib's ConnectionNumber is a macro; XConnectionNumber is the function behind it.
static inline int rig_sdl_x11_fd(SDL_Window *window) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info)) return -1;
#if defined(SDL_VIDEO_DRIVER_X11)
    if (info.subsystem == SDL_SYSWM_X11) return XConnectionNumber(info.info.x11.display);
#endif
    return -1;
}

// SDL_WINDOWPOS_UNDEFINED and SDL_TOUCH_MOUSEID are macros Swift does not import.
static const int rig_sdl_windowpos_undefined = SDL_WINDOWPOS_UNDEFINED;
static const Uint32 rig_sdl_touch_mouseid = SDL_TOUCH_MOUSEID;
