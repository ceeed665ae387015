// espeak-ng's C API (speak_lib.h). Everything in it is a plain function or constant;
// nothing needs a named shim.
#include <espeak-ng/speak_lib.h>
