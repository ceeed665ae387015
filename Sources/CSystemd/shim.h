// sd_notify: READY=1, WATCHDOG=1 and STATUS= for the systemd unit.
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <systemd/sd-bus.h>

// sd_bus_call_method is variadic, which Swift cannot call: StopUnit(unit, "replace")
// on systemd's manager, returning the job's reply.
static inline int rig_sd_bus_stop_unit(sd_bus *bus, const char *unit, sd_bus_error *error,
                                       sd_bus_message **reply) {
    return sd_bus_call_method(bus, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
                              "org.freedesktop.systemd1.Manager", "StopUnit", error, reply,
                              "ss", unit, "replace");
}

// StartUnit(unit, "replace"): the kiosk starts rig-update@FILE.service, an install the
// operator chose at the rig (polkit's rig-media.rules allows that unit and no other).
static inline int rig_sd_bus_start_unit(sd_bus *bus, const char *unit, sd_bus_error *error,
                                        sd_bus_message **reply) {
    return sd_bus_call_method(bus, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
                              "org.freedesktop.systemd1.Manager", "StartUnit", error, reply,
                              "ss", unit, "replace");
}
