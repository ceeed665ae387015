import CLinux
import Foundation
import Glibc
@testable import Kiosk

/// A follower's link to its lead relayed inside the follower's network namespace through
/// a shared network's faults, as the kernel's netem would make them (this machine's kernel
/// has no netem): each chunk read on one side reaches the other after a one-way delay
/// drawn from `delay` (the jitter), in order, as TCP delivers; a chunk "lost" waits one
/// retransmission timeout more and holds back what follows it, as TCP's resend does.
/// The relay listens in the follower's namespace on the lead's own address (the test puts
/// that address on the namespace's loopback and reaches the lead by a second one), so the
/// follower's rig.toml names the lead as it would without the relay, and the lead sees
/// each follower as itself.
final class FaultyLink: @unchecked Sendable {
    struct Faults: Sendable {
        var delay: ClosedRange<Double>
        var loss: Double
        /// Linux's smallest retransmission timeout.
        var retransmit = 0.2

        static let none = Faults(delay: 0...0, loss: 0)
        /// 20 ms of jitter around 20 ms one way, and 2 % of chunks lost.
        static let sharedNetwork = Faults(delay: 0.010...0.030, loss: 0.02)
    }

    private let address: SocketAddress
    private let lead: SocketAddress
    private let condition = NSCondition()
    // Under `condition`:
    private var current = Faults.none
    private var listener: Int32 = -1
    private var open: Set<Int32> = []
    private var generator = SystemRandomNumberGenerator()
    private var chunks = 0
    private var lost = 0

    /// Listening on `address` in `namespace` when it returns, relaying to `lead`.
    init(namespace: String, address: SocketAddress, lead: SocketAddress) throws {
        self.address = address
        self.lead = lead
        let ready = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var problem: String?
        let thread = Thread { [self] in
            problem = listen(in: namespace)
            ready.signal()
            if problem == nil { acceptLoop() }
        }
        thread.name = "faulty-link-\(namespace)"
        thread.start()
        ready.wait()
        if let problem { throw POSIXError(.EIO, userInfo: [NSLocalizedDescriptionKey: problem]) }
    }

    var faults: Faults {
        get { condition.lock(); defer { condition.unlock() }; return current }
        set { condition.lock(); current = newValue; condition.unlock() }
    }

    var counts: (chunks: Int, lost: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (chunks, lost)
    }

    /// Stops listening and cuts every relayed connection.
    func stop() {
        condition.lock()
        for fd in [listener] + open where fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
        condition.unlock()
    }

    private func listen(in namespace: String) -> String? {
        guard rig_enter_network_namespace("/run/netns/\(namespace)") == 0 else {
            return "entering \(namespace): \(String(cString: strerror(errno)))"
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard fd >= 0, address.withSockaddr({ bind(fd, $0, $1) }) == 0, Glibc.listen(fd, 16) == 0 else {
            return "listening on \(address) in \(namespace): \(String(cString: strerror(errno)))"
        }
        condition.lock()
        listener = fd
        condition.unlock()
        return nil
    }

    /// On the namespace's thread: sockets made here belong to the namespace.
    private func acceptLoop() {
        while true {
            let follower = accept(listener, nil, nil)
            if follower < 0 {
                if errno == EINTR { continue }
                return
            }
            let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard upstream >= 0, lead.withSockaddr({ connect(upstream, $0, $1) }) == 0 else {
                // The lead is down: the follower sees its connection closed, as it would.
                if upstream >= 0 { close(upstream) }
                close(follower)
                continue
            }
            var one: Int32 = 1
            for fd in [follower, upstream] {
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            condition.lock()
            open.formUnion([follower, upstream])
            condition.unlock()
            let finished = Relayed(fds: [follower, upstream]) { [self] in
                condition.lock()
                open.subtract([follower, upstream])
                condition.unlock()
            }
            relay(from: follower, to: upstream, finished: finished)
            relay(from: upstream, to: follower, finished: finished)
        }
    }

    /// One direction: a reader stamps each chunk with when it arrives, a writer delivers it then.
    private func relay(from source: Int32, to destination: Int32, finished: Relayed) {
        let queue = DelayedChunks()
        let reader = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = read(source, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                queue.push(count > 0 ? Array(buffer[0..<count]) : nil, after: count > 0 ? delayOfOneChunk() : 0)
                if count <= 0 { return }
            }
        }
        let writer = Thread {
            while let chunk = queue.next() {
                var sent = 0
                while sent < chunk.count {
                    let wrote = chunk.withUnsafeBytes { send(destination, $0.baseAddress! + sent, chunk.count - sent, Int32(MSG_NOSIGNAL)) }
                    if wrote < 0, errno == EINTR { continue }
                    guard wrote > 0 else { break }
                    sent += wrote
                }
                if sent < chunk.count {
                    shutdown(source, Int32(SHUT_RD))
                    break
                }
            }
            shutdown(destination, Int32(SHUT_WR))
            finished.oneDirectionDone()
        }
        reader.start()
        writer.start()
    }

    private func delayOfOneChunk() -> Double {
        condition.lock()
        defer { condition.unlock() }
        chunks += 1
        var delay = current.delay.lowerBound == current.delay.upperBound
            ? current.delay.lowerBound : Double.random(in: current.delay, using: &generator)
        if current.loss > 0, Double.random(in: 0..<1, using: &generator) < current.loss {
            lost += 1
            delay += current.retransmit
        }
        return delay
    }
}

/// Chunks waiting for their arrival, in order: none arrives before the one ahead of it.
private final class DelayedChunks: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: [(due: Date, chunk: [UInt8]?)] = []
    private var lastDue = Date.distantPast

    /// `chunk` nil is the end of the stream.
    func push(_ chunk: [UInt8]?, after delay: Double) {
        condition.lock()
        lastDue = max(lastDue, Date() + delay)
        waiting.append((lastDue, chunk))
        condition.broadcast()
        condition.unlock()
    }

    /// The next chunk once it is due; nil at the end of the stream.
    func next() -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let first = waiting.first {
                if first.due <= Date() {
                    waiting.removeFirst()
                    return first.chunk
                }
                _ = condition.wait(until: first.due)
            } else {
                condition.wait()
            }
        }
    }
}

/// A relayed connection's two sockets, closed once both directions have ended.
private final class Relayed: @unchecked Sendable {
    private let lock = NSLock()
    private var remaining = 2
    private let fds: [Int32]
    private let onClose: @Sendable () -> Void

    init(fds: [Int32], onClose: @escaping @Sendable () -> Void) {
        self.fds = fds
        self.onClose = onClose
    }

    func oneDirectionDone() {
        lock.lock()
        remaining -= 1
        let last = remaining == 0
        lock.unlock()
        guard last else { return }
        onClose()
        fds.forEach { close($0) }
    }
}
