import Foundation

/// The one thread espeak-ng ever runs on. espeak-ng keeps its state in globals
/// (upstream issues #68, #495, #659, #1527) and a second espeak_Initialize disturbs
/// the first, so every call, from whatever thread asks, is queued here and run in
/// order. A thread of its own rather than an actor: an actor may resume on any
/// thread of the shared pool, and a synthesis is blocking C work that should not hold
/// one of that pool's few threads either.
final class SpeechThread: Sendable {
    typealias Job = @Sendable (EspeakSession) -> Void

    private let condition = NSCondition()
    // Guarded by `condition`; nonisolated(unsafe) because NSCondition is not a Mutex.
    nonisolated(unsafe) private var jobs: [Job] = []

    init() {
        let thread = Thread { [self] in run() }
        thread.name = "rig-speech"
        thread.start()
    }

    func submit(_ job: @escaping Job) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `work` on the speech thread and waits for its result.
    func perform<T: Sendable>(_ work: @escaping @Sendable (EspeakSession) -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        submit { session in
            box.value = work(session)
            done.signal()
        }
        done.wait()
        // The semaphore orders the write before this read.
        guard let value = box.value else { preconditionFailure("speech job finished without a result") }
        return value
    }

    private func run() {
        let session = EspeakSession()
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job(session)
        }
    }
}

/// A result handed from the speech thread to the waiting caller; the semaphore in
/// `perform` is what makes the hand-over safe.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
