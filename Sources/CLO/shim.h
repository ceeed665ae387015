// liblo (Debian's 0.31), used for the OSC wire format only: the kiosk owns its UDP
// socket (bound where rig.toml says, on its event loop) and hands liblo the bytes.
#include <lo/lo.h>
