// ALSA's PCM, control and card API. snd_pcm_*_alloca are macros that do not import:
// the kiosk uses the _malloc/_free variants. SND_PCM_NONBLOCK is a plain constant.
#include <alsa/asoundlib.h>
