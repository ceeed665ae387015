// pixman does the fills, blits and glyph composites into XRGB8888 buffers.
#include <pixman.h>


// Frame rows written with streaming (non-temporal) stores: they go to memory without
// being read into the cache first, and without pushing out what the next frame reads
// there (a quarter turn's window). Used only for frames far larger than a cache
// (QuarterTurnWindow.streamingBytes); SSE2 is part of x86-64, other machines copy.
#include <stdint.h>
#include <stddef.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
static inline void rig_copy_streaming(uint32_t *dst, const uint32_t *src, size_t count) {
#if defined(__SSE2__)
    // Streaming stores want 16-byte aligned destinations: the first pixels go plainly.
    while (count && ((uintptr_t)dst & 15)) { *dst++ = *src++; count--; }
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(src + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(src + i + 4));
        __m128i c = _mm_loadu_si128((const __m128i *)(src + i + 8));
        __m128i d = _mm_loadu_si128((const __m128i *)(src + i + 12));
        _mm_stream_si128((__m128i *)(dst + i), a);
        _mm_stream_si128((__m128i *)(dst + i + 4), b);
        _mm_stream_si128((__m128i *)(dst + i + 8), c);
        _mm_stream_si128((__m128i *)(dst + i + 12), d);
    }
    for (; i < count; i++) dst[i] = src[i];
#else
    for (size_t i = 0; i < count; i++) dst[i] = src[i];
#endif
}

// Orders the streaming stores before what follows (the frame handed to the display).
static inline void rig_streaming_done(void) {
#if defined(__SSE2__)
    _mm_sfence();
#endif
}
