// libunibreak finds UAX #14 line-break opportunities.
#include <linebreak.h>
