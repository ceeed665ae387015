// FreeType rasterizes glyphs; FT_LOAD_COLOR gives colour emoji bitmaps.
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_BITMAP_H
