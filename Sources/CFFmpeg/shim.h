// FFmpeg 5.1 (Debian 12): libavformat, libavcodec, libavutil, libswscale, libswresample.
// Function-like macros and compound literals do not import into Swift; they get fixed,
// importable names here and nowhere else.
#include <errno.h>
#include <stdint.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/mathematics.h>
#include <libavutil/opt.h>
#include <libavutil/samplefmt.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>

// AVERROR(e) negates a POSIX errno; AVERROR_EOF is FFERRTAG('E','O','F',' ').
static inline int rig_averror(int posix) { return AVERROR(posix); }
static inline int rig_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int rig_averror_eof(void) { return AVERROR_EOF; }
static inline int rig_averror_enospc(void) { return AVERROR(ENOSPC); }
static inline int rig_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }

// AV_NOPTS_VALUE is ((int64_t)UINT64_C(0x8000000000000000)).
static inline int64_t rig_av_nopts_value(void) { return AV_NOPTS_VALUE; }

// AV_TIME_BASE_Q is a compound literal.
static inline AVRational rig_av_time_base_q(void) { return (AVRational){1, AV_TIME_BASE}; }

// av_err2str uses a compound-literal buffer; this writes into the caller's.
static inline void rig_av_strerror(int code, char *buffer, size_t size) {
    if (av_strerror(code, buffer, size) < 0) snprintf(buffer, size, "FFmpeg error %d", code);
}

// MKTAG builds a fourcc.
static inline uint32_t rig_mktag(char a, char b, char c, char d) { return MKTAG(a, b, c, d); }
