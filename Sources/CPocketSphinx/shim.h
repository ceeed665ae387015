// pocketsphinx 5prealpha's C API. cmd_ln_init is variadic (Swift cannot call it);
// cmd_ln_parse_r with an argv array is the callable way to make a configuration.
#include <pocketsphinx.h>
#include <sphinxbase/cmd_ln.h>
#include <sphinxbase/err.h>
