import CLinux
import Foundation
import Synchronization

/// The thread a blocking device runs on (camera, sound out, sound in): started once,
/// asked to stop through an eventfd its poll() also waits on, and waited for with a
/// deadline, so the event loop is never held by a device that hangs in open().
final class DeviceThread: Sendable {
    let name: String
    /// Readable once a stop is asked for (or `wake()` was called): put it in the
    /// thread's poll() so it returns at once.
    let wakeFD: Int32
    private let stopRequested = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let finished = Mutex<Bool>(false)

    init(name: String) throws {
        self.name = name
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        if wakeFD < 0 { throw SystemError.call("eventfd", errno) }
    }

    deinit { close(wakeFD) }

    /// True once a stop is asked for: the body's loops end on it.
    var stopping: Bool { stopRequested.load(ordering: .acquiring) }

    /// Starts `body` on the thread (the first call only).
    func start(_ body: @escaping @Sendable () -> Void) {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in
            // Foundation does not name the kernel's thread: `top -H` and rig bench's
            // thread shares read the name from /proc (cut to 15 bytes).
            _ = rig_name_this_thread(name)
            body()
            finished.withLock { $0 = true }
        }
        thread.name = name
        thread.start()
    }

    /// Makes `wakeFD` readable, for a body waiting on it to look at new work.
    func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// Clears `wakeFD` after the body has looked at its work (a stop stays asked for).
    func clearWake() {
        var count: UInt64 = 0
        _ = read(wakeFD, &count, 8)
    }

    /// Asks the body to stop and waits up to `timeout` for it to return (it closes its
    /// device on the way out). False if it is still running then.
    @discardableResult
    func stop(timeout: Double = 3) -> Bool {
        guard started.load(ordering: .acquiring) else { return true }
        stopRequested.store(true, ordering: .releasing)
        wake()
        let deadline = MonotonicTime.now() + timeout
        // Polls with a deadline instead of sleeping blind; the body returns within one
        // poll() wake-up unless it is inside a slow open().
        while !finished.withLock({ $0 }) && MonotonicTime.now() < deadline {
            var none = pollfd(fd: -1, events: 0, revents: 0)
            _ = poll(&none, 0, 5)
        }
        return finished.withLock { $0 }
    }
}
