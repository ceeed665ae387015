import CLinux
import Foundation

/// The importer's queue, results and thread, shared between the importer (on the event
/// loop) and its thread. The thread holds this, not the importer, so the importer can go
/// away (and stop the thread) while a conversion runs.
final class ImportWork: @unchecked Sendable {
    struct Job: Sendable {
        var source: URL
        var kind: ScriptImportKind
        var size: Int
        var modified: Date
        var limit: Int
    }

    struct State {
        var queue: [Job] = []
        var pending: Set<String> = []
        var results: [String: ImportedScript] = [:]
        var runs = 0
        var running: pid_t?
        var stopping = false
        var threadStarted = false
        var threadEnded = false
        var finished: (@Sendable () -> Void)?
    }

    private let condition = NSCondition()
    private var state = State()

    func locked<R>(_ body: (inout State) -> R) -> R {
        condition.lock()
        defer { condition.unlock() }
        return body(&state)
    }

    /// Queues the job unless its source is already pending or the work has stopped.
    func add(_ job: Job) -> Bool {
        let added = locked { state -> Bool in
            guard !state.stopping, state.pending.insert(job.source.path).inserted else { return false }
            state.queue.append(job)
            return true
        }
        if added { condition.broadcast() }
        return added
    }

    /// Starts the thread on the first job; it then lives until `stop`.
    func startThread(_ read: @escaping @Sendable (Job, ImportWork) -> ImportedScript?) {
        let start = locked { state -> Bool in
            defer { state.threadStarted = true }
            return !state.threadStarted
        }
        guard start else { return }
        let thread = Thread { [self] in
            rig_name_this_thread("rig-import")
            while let job = next() {
                let result = read(job, self)
                let callback = locked { state -> (@Sendable () -> Void)? in
                    state.pending.remove(job.source.path)
                    if let result { state.results[job.source.path] = result }
                    return result == nil ? nil : state.finished
                }
                condition.broadcast()
                callback?()
            }
            locked { $0.threadEnded = true }
            condition.broadcast()
        }
        thread.name = "rig-import"
        thread.start()
    }

    /// The next job, waiting for one; nil once stopping.
    private func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while state.queue.isEmpty && !state.stopping { condition.wait() }
        return state.stopping ? nil : state.queue.removeFirst()
    }

    func waitUntilIdle(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !state.pending.isEmpty {
            if !condition.wait(until: deadline) { return state.pending.isEmpty }
        }
        return true
    }

    /// Stops the thread: the running converter sees `stopping` within 10 ms and is killed
    /// with its group; then the thread ends. Waits up to `waiting` seconds for that.
    func stop(waiting: Double) {
        let deadline = Date().addingTimeInterval(waiting)
        condition.lock()
        defer { condition.unlock() }
        state.stopping = true
        state.queue.removeAll()
        state.pending.removeAll()
        condition.broadcast()
        while state.threadStarted && !state.threadEnded {
            if !condition.wait(until: deadline) { return }
        }
    }
}
