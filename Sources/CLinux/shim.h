// Linux descriptors that Glibc's Swift module leaves out: eventfd (waking the event
// loop from other threads) and signalfd (SIGTERM/SIGINT as a readable descriptor);
// and glibc's mallopt, which the kiosk uses to pin its large-allocation threshold.
#include <malloc.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
