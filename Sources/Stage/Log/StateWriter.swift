import Durable
import Foundation
import Glibc
import Prompter

/// Writes state files on a thread of its own. Saving the reading position once a
/// second means a temp file, two fsyncs and a rename; on an SD card or eMMC that can
/// take longer than a frame, so the event loop only hands the encoded bytes over.
/// Only the newest bytes per file matter: a write still waiting is replaced, and so
/// is a removal (the last one asked for wins).
///
/// A plain thread, not a dispatch queue: libdispatch's worker threads make system
/// calls that rig.service's system-call filter refuses.
package final class StateWriter: @unchecked Sendable {
    // Every field below is read and written with `condition` locked.
    private let condition = NSCondition()
    /// Per file, the bytes to write, or nil to remove it.
    private var pending: [URL: Data?] = [:]
    private var writing = false
    private var stopped = false

    package init(name: String = "rig state writer") {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Queues `data` for `url`; returns at once.
    package func write(_ data: Data, to url: URL) {
        queue(data, for: url)
    }

    /// Queues the removal of `url`, after any write of it already under way, so none
    /// brings it back; returns at once.
    package func remove(_ url: URL) {
        queue(nil, for: url)
    }

    private func queue(_ data: Data?, for url: URL) {
        condition.lock()
        pending.updateValue(data, forKey: url)
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
            pending.removeValue(forKey: url)
            writing = true
            condition.unlock()
            if let data {
                do {
                    try AtomicFile.write(data, to: url, access: .ownerOnly)
                } catch {
                    KioskLog.error("cannot save \(url.lastPathComponent): \(error)")
                }
            } else if unlink(url.path) != 0, errno != ENOENT {
                KioskLog.error("cannot remove \(url.lastPathComponent): errno \(errno)")
            }
            condition.lock()
            writing = false
            condition.broadcast()
        }
        condition.unlock()
    }
}
