// libinput: touchscreens, keyboards, clickers and pointers through udev.
#include <stdarg.h>
#include <stdio.h>
#include <libinput.h>
#include <linux/input.h>
#include <linux/uinput.h>

// libinput's log handler hands over a va_list; Swift formats it through this.
static inline int rig_format_va(char *buffer, size_t size, const char *format, va_list args) {
    return vsnprintf(buffer, size, format, args);
}
