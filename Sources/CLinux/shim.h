// Linux descriptors that Glibc's Swift module leaves out: eventfd (waking the event
// loop from other threads) and signalfd (SIGTERM/SIGINT as a readable descriptor);
// and glibc's mallopt, which the kiosk uses to pin its large-allocation threshold.
#include <malloc.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>

// Non-blocking, close-on-exec sockets for the network remote. Named here because the
// SOCK_* enum constants are found or not found depending on which C module a clean
// build loads <sys/socket.h> through first; a function this header owns always resolves.
static inline int rig_udp_socket(int family) {
    return socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}
static inline int rig_tcp_socket(int family) {
    return socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}

// The calling thread's name in the kernel (/proc/self/task/*/comm, `top -H`): Foundation
// names only its Thread object. prctl is variadic, so Swift cannot call it directly.
#include <sys/prctl.h>
static inline int rig_name_this_thread(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

// syncfs (a GNU extension, so not in Glibc's Swift module): a USB stick's filesystem
// written back before the kiosk asks systemd to unmount it. By number, as the module
// may have read <unistd.h> without _GNU_SOURCE first.
#include <sys/syscall.h>
#include <unistd.h>
static inline int rig_syncfs(int fd) {
    return (int)syscall(SYS_syncfs, fd);
}

// Whether a time daemon (chrony) has synchronised the system clock, as the kernel
// keeps it (adjtimex, read-only: modes 0), and its estimated error in microseconds.
#include <sys/timex.h>
static inline int rig_clock_synchronised(long *estimated_error_us) {
    struct timex tx = {0};
    int state = adjtimex(&tx);
    *estimated_error_us = tx.esterror;
    return state >= 0 && state != TIME_ERROR && (tx.status & STA_UNSYNC) == 0;
}

// The calling thread enters the network namespace that `ip netns add` pinned at `path`
// (/run/netns/NAME): the follower rigs' kiosk test relays a follower's link inside its
// namespace through a faulty network. setns is a GNU extension, so not in Glibc's Swift
// module; by number, with CLONE_NEWNET's value, for the same reason as syncfs above.
#include <fcntl.h>
static inline int rig_enter_network_namespace(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    int entered = (int)syscall(SYS_setns, fd, 0x40000000 /* CLONE_NEWNET */);
    close(fd);
    return entered;
}
