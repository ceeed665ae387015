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

// Text pieces whose every pixel is a shade of gray (white text on black, the default)
// are kept one byte a pixel (GrayCanvas): a quarter of the memory, so four times the
// row phases fit the same budget, and a frame reads a quarter of the bytes.

// The gray level of each of `count` XRGB8888 pixels into `dst`; 0 as soon as one
// pixel is not gray (its red, green and blue differ), else 1. The X byte is ignored.
static inline int rig_gray_from_xrgb(uint8_t *dst, const uint32_t *src, size_t count) {
    for (size_t i = 0; i < count; i++) {
        uint32_t p = src[i] & 0x00ffffffu, g = p & 0xffu;
        if (p != g * 0x010101u) return 0;
        dst[i] = (uint8_t)g;
    }
    return 1;
}

// `count` gray levels written as XRGB8888 pixels (X = 0xff), sixteen at a time; with
// `streaming`, by streaming stores as rig_copy_streaming writes (call
// rig_streaming_done after the frame). The SSE2 loop, x86-64's baseline.
static inline void rig_expand_gray_sse2(uint32_t *dst, const uint8_t *src, size_t count, int streaming) {
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i opaque = _mm_set1_epi32((int)0xff000000u);
    // Streaming stores want 16-byte aligned destinations: the first pixels go plainly.
    while (streaming && i < count && ((uintptr_t)(dst + i) & 15)) {
        dst[i] = 0xff000000u | (uint32_t)src[i] * 0x010101u;
        i++;
    }
    for (; i + 16 <= count; i += 16) {
        __m128i g = _mm_loadu_si128((const __m128i *)(src + i));
        __m128i lo = _mm_unpacklo_epi8(g, g), hi = _mm_unpackhi_epi8(g, g);
        __m128i pixels[4] = {
            _mm_or_si128(_mm_unpacklo_epi16(lo, lo), opaque), _mm_or_si128(_mm_unpackhi_epi16(lo, lo), opaque),
            _mm_or_si128(_mm_unpacklo_epi16(hi, hi), opaque), _mm_or_si128(_mm_unpackhi_epi16(hi, hi), opaque),
        };
        for (int k = 0; k < 4; k++) {
            if (streaming) _mm_stream_si128((__m128i *)(dst + i + 4 * k), pixels[k]);
            else _mm_storeu_si128((__m128i *)(dst + i + 4 * k), pixels[k]);
        }
    }
#else
    (void)streaming;
#endif
    for (; i < count; i++) dst[i] = 0xff000000u | (uint32_t)src[i] * 0x010101u;
}

#if defined(__x86_64__)
#include <immintrin.h>
// The same with AVX2, where the processor has it (most x86 mini-PCs, the N100 among
// them; Celeron J4000s and older Atoms have none): a byte shuffle spreads sixteen levels
// over two 32-byte stores, 7 instructions for sixteen pixels against SSE2's 15. A frame's
// worth (1920x1080 from a 2 MB window): 0.143-0.149 ms against 0.163-0.171 ms, on the
// development VM.
__attribute__((target("avx2")))
static inline void rig_expand_gray_avx2(uint32_t *dst, const uint8_t *src, size_t count, int streaming) {
    size_t i = 0;
    const __m256i opaque = _mm256_set1_epi32((int)0xff000000u);
    // Each 128-bit lane shuffles within itself: the low lane gets levels 0-3 of the
    // eight, the high lane 4-7 (-1 clears the X byte, set by the OR).
    const __m256i first = _mm256_setr_epi8(0, 0, 0, -1, 1, 1, 1, -1, 2, 2, 2, -1, 3, 3, 3, -1,
                                           4, 4, 4, -1, 5, 5, 5, -1, 6, 6, 6, -1, 7, 7, 7, -1);
    const __m256i second = _mm256_setr_epi8(8, 8, 8, -1, 9, 9, 9, -1, 10, 10, 10, -1, 11, 11, 11, -1,
                                            12, 12, 12, -1, 13, 13, 13, -1, 14, 14, 14, -1, 15, 15, 15, -1);
    while (streaming && i < count && ((uintptr_t)(dst + i) & 31)) {
        dst[i] = 0xff000000u | (uint32_t)src[i] * 0x010101u;
        i++;
    }
    for (; i + 16 <= count; i += 16) {
        __m256i g = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(src + i)));
        __m256i a = _mm256_or_si256(_mm256_shuffle_epi8(g, first), opaque);
        __m256i b = _mm256_or_si256(_mm256_shuffle_epi8(g, second), opaque);
        if (streaming) {
            _mm256_stream_si256((__m256i *)(dst + i), a);
            _mm256_stream_si256((__m256i *)(dst + i + 8), b);
        } else {
            _mm256_storeu_si256((__m256i *)(dst + i), a);
            _mm256_storeu_si256((__m256i *)(dst + i + 8), b);
        }
    }
    // Eight more where they fit: a streamed run from a 32-byte boundary to a cache line's
    // end then ends without an ordinary store into a line it streamed into.
    if (i + 8 <= count) {
        __m256i g = _mm256_broadcastsi128_si256(_mm_loadl_epi64((const __m128i *)(src + i)));
        __m256i a = _mm256_or_si256(_mm256_shuffle_epi8(g, first), opaque);
        if (streaming) _mm256_stream_si256((__m256i *)(dst + i), a);
        else _mm256_storeu_si256((__m256i *)(dst + i), a);
        i += 8;
    }
    for (; i < count; i++) dst[i] = 0xff000000u | (uint32_t)src[i] * 0x010101u;
}
#endif

// The expansion through the best loop the processor runs.
static inline void rig_expand_gray_to(uint32_t *dst, const uint8_t *src, size_t count, int streaming) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) return rig_expand_gray_avx2(dst, src, count, streaming);
#endif
    rig_expand_gray_sse2(dst, src, count, streaming);
}

// The marker band (its colour OVER the text, as pixman fills it) applied while a frame
// is copied from a quarter-turn window. Each channel becomes base + MUL_UN8(level,
// ialpha), pixman's rounded product ((t + (t >> 8)) >> 8 with t = level * ialpha +
// 0x80); `base` is the band over black, X byte included. BandTint checks its tables
// against this before a frame uses it. Sixteen gray pixels, or four XRGB ones, a step.
static inline uint32_t rig_band_level(uint32_t level, uint32_t ialpha) {
    uint32_t t = level * ialpha + 0x80u;
    return (t + (t >> 8)) >> 8;
}

#if defined(__SSE2__)
// rig_band_level of sixteen bytes at once, in 16-bit lanes (level * ialpha + 0x80 stays
// under 65536).
static inline __m128i rig_band_levels16(__m128i levels, __m128i factor) {
    const __m128i zero = _mm_setzero_si128(), half = _mm_set1_epi16(0x80);
    __m128i lo = _mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(levels, zero), factor), half);
    __m128i hi = _mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(levels, zero), factor), half);
    lo = _mm_srli_epi16(_mm_add_epi16(lo, _mm_srli_epi16(lo, 8)), 8);
    hi = _mm_srli_epi16(_mm_add_epi16(hi, _mm_srli_epi16(hi, 8)), 8);
    return _mm_packus_epi16(lo, hi);
}
#endif

static inline void rig_band_gray_to(uint32_t *dst, const uint8_t *src, size_t count, uint32_t base,
                                    uint32_t ialpha) {
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i factor = _mm_set1_epi16((short)ialpha), over = _mm_set1_epi32((int)base);
    const __m128i colour = _mm_set1_epi32(0x00ffffff);
    for (; i + 16 <= count; i += 16) {
        __m128i m = rig_band_levels16(_mm_loadu_si128((const __m128i *)(src + i)), factor);
        __m128i m2lo = _mm_unpacklo_epi8(m, m), m2hi = _mm_unpackhi_epi8(m, m);
        __m128i pixels[4] = {_mm_unpacklo_epi16(m2lo, m2lo), _mm_unpackhi_epi16(m2lo, m2lo),
                             _mm_unpacklo_epi16(m2hi, m2hi), _mm_unpackhi_epi16(m2hi, m2hi)};
        for (int k = 0; k < 4; k++) {
            // No channel carries: base + the product stays within 255 (the band over white).
            __m128i p = _mm_add_epi32(_mm_and_si128(pixels[k], colour), over);
            _mm_storeu_si128((__m128i *)(dst + i + 4 * k), p);
        }
    }
#endif
    for (; i < count; i++) dst[i] = base + rig_band_level(src[i], ialpha) * 0x010101u;
}

static inline void rig_band_xrgb_to(uint32_t *dst, const uint32_t *src, size_t count, uint32_t base,
                                    uint32_t ialpha) {
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i factor = _mm_set1_epi16((short)ialpha), over = _mm_set1_epi32((int)base);
    const __m128i colour = _mm_set1_epi32(0x00ffffff);
    for (; i + 4 <= count; i += 4) {
        __m128i m = _mm_and_si128(rig_band_levels16(_mm_loadu_si128((const __m128i *)(src + i)), factor), colour);
        _mm_storeu_si128((__m128i *)(dst + i), _mm_add_epi32(m, over));
    }
#endif
    for (; i < count; i++) {
        uint32_t p = src[i];
        dst[i] = base + (rig_band_level((p >> 16) & 0xffu, ialpha) << 16)
                      + (rig_band_level((p >> 8) & 0xffu, ialpha) << 8) + rig_band_level(p & 0xffu, ialpha);
    }
}

static inline void rig_expand_gray(uint32_t *dst, const uint8_t *src, size_t count) {
    rig_expand_gray_to(dst, src, count, 0);
}
