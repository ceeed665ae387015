// fontconfig finds font files by family and by the characters they cover.
#include <fontconfig/fontconfig.h>
