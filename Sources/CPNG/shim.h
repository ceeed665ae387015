// libpng reads and writes the snapshot and reference images.
#include <png.h>
