// libudev: device enumeration and the hotplug monitor (DRM, input, video4linux).
#include <libudev.h>
