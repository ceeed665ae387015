// Linux descriptors that Glibc's Swift module leaves out: eventfd (waking the event
// loop from other threads) and signalfd (SIGTERM/SIGINT as a readable descriptor).
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
