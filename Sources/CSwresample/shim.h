// libswresample (FFmpeg 5.1) and the libavutil pieces it needs: channel layouts and
// sample formats. AV_CHANNEL_LAYOUT_MONO is a compound literal and does not import;
// av_channel_layout_default() builds the same layout and does.
#include <libswresample/swresample.h>
#include <libavutil/channel_layout.h>
#include <libavutil/samplefmt.h>
