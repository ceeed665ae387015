import Durable
import Foundation
import Prompter

/// Writes state files on a thread of its own. Saving the reading position once a
/// second means a temp file, two fsyncs and a rename; on an SD card or eMMC that can
/// take longer than a frame, so the event loop only hands the encoded bytes over.
/// Only the newest bytes per file matter: a write still waiting is replaced.
///
/// A plain thread, not a dispatch queue: libdispatch's worker threads make system
/// calls that rig.service's system-call filter refuses.
package final class StateWriter: @unchecked Sendable {
    // Every field below is read and written with `condition` locked.
    private let condition = NSCondition()
    private var pending: [URL: Data] = [:]
    private var writing = false
    private var stopped = false

    package init() {
        let thread = Thread { [self] in run() }
        thread.name = "rig state writer"
        thread.start()
    }

    /// Queues `data` for `url`; returns at once.
    package func write(_ data: Data, to url: URL) {
        condition.lock()
        pending[url] = data
        condition.signal()
        condition.unlock()
    }

    /// Waits until everything queued is on the disk (at shutdown, and in tests).
    package func flush() {
        condition.lock()
        while !pending.isEmpty || writing { condition.wait() }
        condition.unlock()
    }

    /// Writes what is queued, then ends the thread.
    package func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while !pending.isEmpty || writing { condition.wait() }
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while true {
            while pending.isEmpty && !stopped { condition.wait() }
            guard let (url, data) = pending.first else { break }
            pending[url] = nil
            writing = true
            condition.unlock()
            do {
                try AtomicFile.write(data, to: url, access: .ownerOnly)
            } catch {
                KioskLog.error("cannot save \(url.lastPathComponent): \(error)")
            }
            condition.lock()
            writing = false
            condition.broadcast()
        }
        condition.unlock()
    }
}
