// ALSA's PCM, control and card API. snd_pcm_*_alloca are macros that do not import:
// the kiosk uses the _malloc/_free variants. SND_PCM_NONBLOCK is a plain constant.
#include <alsa/asoundlib.h>

// alsa-lib prints its own errors on stderr (a variadic handler, not callable from
// Swift); the kiosk reports every failure itself, with the device's name, so this
// silences the library's copy.
static void rig_alsa_ignore_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
static inline void rig_alsa_silence_library_errors(void) {
    snd_lib_error_set_handler(rig_alsa_ignore_error);
}
