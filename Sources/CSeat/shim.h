// libseat opens DRM and input nodes through logind or seatd and tells of VT switches.
#include <libseat.h>
