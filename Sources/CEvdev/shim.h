// libevdev: hand controllers (shuttles, gamepads), which libinput does not handle.
// It keeps each device's state and resynchronises it after the kernel drops events.
#include <libevdev/libevdev.h>
#include <linux/input.h>
