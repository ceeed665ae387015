import Foundation
import Synchronization
import CLinux
import Stage

/// The kiosk's one event-loop thread: it owns the app state, waits in poll() on
/// device file descriptors and timers, and runs handlers one at a time.
/// Devices that block (the camera) run on their own threads and hand results over
/// through `mailbox`, the only part of the loop that other threads may touch.
final class EventLoop {
    typealias Handler = () -> Void

    struct SourceID: Hashable { fileprivate let raw: Int }
    struct TimerID: Hashable { fileprivate let raw: Int }

    private struct Reader { let fd: Int32; let name: String; let handler: Handler }
    private struct Timer { let deadline: Double; let handler: Handler }

    private var readers: [Int: Reader] = [:]
    private var timers: [Int: Timer] = [:]
    private var nextID = 0
    private var stopping = false

    let mailbox: LoopMailbox
    let clock: () -> Double

    init(clock: @escaping () -> Double = MonotonicTime.now) throws {
        self.clock = clock
        mailbox = try LoopMailbox()
    }

    /// Calls `handler` on the loop whenever `fd` is readable (or hung up).
    @discardableResult
    func addReader(fd: Int32, name: String, _ handler: @escaping Handler) -> SourceID {
        nextID += 1
        readers[nextID] = Reader(fd: fd, name: name, handler: handler)
        return SourceID(raw: nextID)
    }

    func remove(_ id: SourceID) { readers[id.raw] = nil }

    /// Runs `handler` once, at or after `deadline` (seconds on CLOCK_MONOTONIC).
    @discardableResult
    func addTimer(at deadline: Double, _ handler: @escaping Handler) -> TimerID {
        nextID += 1
        timers[nextID] = Timer(deadline: deadline, handler: handler)
        return TimerID(raw: nextID)
    }

    func cancel(_ id: TimerID) { timers[id.raw] = nil }

    /// The earliest timer's deadline: a loop on a manual clock (tests) moves the clock
    /// from one deadline to the next.
    var nextTimerDeadline: Double? { timers.values.map(\.deadline).min() }

    /// Ends `run()` after the current handler returns.
    func stop() { stopping = true }

    func run() {
        stopping = false
        while !stopping { runOnce(timeout: nil) }
    }

    /// Waits for at most `timeout` seconds (or until the next timer) and runs what is due.
    /// Tests drive the loop with this and a deadline instead of sleeping.
    func runOnce(timeout: Double?) {
        var wait = timeout
        if let next = timers.values.map(\.deadline).min() {
            let untilTimer = max(0, next - clock())
            wait = min(wait ?? untilTimer, untilTimer)
        }
        let ids = Array(readers.keys)
        var fds = [pollfd(fd: mailbox.fd, events: Int16(POLLIN), revents: 0)]
        fds += ids.compactMap { readers[$0] }.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        // Rounded up, so a timer is never woken for just before its deadline.
        let ms: Int32 = wait.map { Int32(min(($0 * 1000).rounded(.up), 3_600_000)) } ?? -1
        let ready = poll(&fds, nfds_t(fds.count), ms)
        if ready > 0 {
            if fds[0].revents != 0 { for work in mailbox.drain() { work() } }
            for (index, id) in ids.enumerated() where fds[index + 1].revents != 0 {
                // A handler may have removed this source or a later one.
                readers[id]?.handler()
                if stopping { return }
            }
        }
        runDueTimers()
    }

    private func runDueTimers() {
        let now = clock()
        let due = timers.filter { $0.value.deadline <= now }.sorted { $0.value.deadline < $1.value.deadline }
        for (id, timer) in due {
            timers[id] = nil
            timer.handler()
            if stopping { return }
        }
    }
}

/// Work handed to the event loop from other threads: an eventfd wakes poll(),
/// and the queued closures run on the loop thread.
final class LoopMailbox: Sendable {
    let fd: Int32
    private let queue = Mutex<[@Sendable () -> Void]>([])

    init() throws {
        fd = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        if fd < 0 { throw SystemError.call("eventfd", errno) }
    }

    deinit { close(fd) }

    func post(_ work: @escaping @Sendable () -> Void) {
        queue.withLock { $0.append(work) }
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
    }

    fileprivate func drain() -> [@Sendable () -> Void] {
        var count: UInt64 = 0
        _ = read(fd, &count, 8)
        return queue.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
    }
}

/// Seconds on CLOCK_MONOTONIC: the clock of DRM flip events, libinput event times and
/// V4L2 buffer timestamps, so all of them compare directly.
package enum MonotonicTime {
    package static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
