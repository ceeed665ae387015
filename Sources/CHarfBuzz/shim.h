// HarfBuzz shapes runs of text into positioned glyphs, on top of FreeType faces.
#include <hb.h>
#include <hb-ft.h>
#include <hb-ot.h>
