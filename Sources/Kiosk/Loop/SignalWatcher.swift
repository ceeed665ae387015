import CLinux
import Foundation

/// Signals as a readable descriptor, so a shutdown request is handled on the event
/// loop like any other event and the screens are left clean.
///
/// The descriptor only sees a signal that every thread blocks; `ProcessSignals.claim()`
/// does that for the whole process before any thread starts (a command that uses this
/// says so with `Command.watchesSignals`). Blocking here too covers the calling thread
/// alone, which is all a single-threaded command needs.
final class SignalWatcher {
    let fd: Int32

    init(signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]) throws {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        fd = signalfd(-1, &set, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        if fd < 0 { throw SystemError.call("signalfd", errno) }
    }

    deinit { close(fd) }

    /// The signals received since the last call.
    func drain() -> [Int32] {
        var received: [Int32] = []
        var info = signalfd_siginfo()
        while read(fd, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            received.append(Int32(info.ssi_signo))
        }
        return received
    }
}
