// sd_notify: READY=1, WATCHDOG=1 and STATUS= for the systemd unit.
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
