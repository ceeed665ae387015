// pixman does the fills, blits and glyph composites into XRGB8888 buffers.
#include <pixman.h>
