// libyuv converts and mirrors camera frames. Debian ships no pkg-config file for it.
#include <libyuv.h>
