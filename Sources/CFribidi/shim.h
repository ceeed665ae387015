// FriBidi resolves bidirectional embedding levels (UAX #9) per paragraph.
#include <fribidi.h>
