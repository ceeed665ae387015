import Foundation

/// Converts imported documents on its own thread so the event loop never waits for a
/// converter. The library asks for a conversion when a scan finds no fresh cache; the
/// importer writes the cache file and calls `finished` (from its thread), and the
/// owner refreshes the library, which then reads the cache. The scripts-folder watcher
/// also sees the cache file arrive (it lets `.rig-import` files through), so the kiosk
/// refreshes without extra wiring.
public final class ScriptImporter: @unchecked Sendable {
    let converter: ScriptConverter
    private let queue = DispatchQueue(label: "rig.script-import")
    private let lock = NSLock()
    private var pending: Set<String> = []
    private var runs = 0
    /// Called on the importer's thread after each conversion's cache is written.
    public var finished: (@Sendable () -> Void)? {
        get { lock.withLock { _finished } }
        set { lock.withLock { _finished = newValue } }
    }
    private var _finished: (@Sendable () -> Void)?

    init(converter: ScriptConverter) {
        self.converter = converter
    }

    /// How many times a converter has been started (tests check the cache is used).
    public var conversionsRun: Int { lock.withLock { runs } }

    /// Whether a conversion for this source is queued or running.
    func isPending(_ source: URL) -> Bool {
        lock.withLock { pending.contains(source.path) }
    }

    /// Queues a conversion unless one for the same file is already queued.
    func request(_ source: URL, kind: ScriptImportKind, size: Int, modified: Date) {
        let queued = lock.withLock { pending.insert(source.path).inserted }
        guard queued else { return }
        queue.async { [self] in
            lock.withLock { runs += 1 }
            let content: ScriptImportCache.Content
            switch converter.convert(source, kind: kind) {
            case .success(let text): content = .text(text)
            case .failure(let failure): content = .failed(failure.description)
            }
            // A source changed meanwhile has a new stamp: this cache is then ignored.
            try? ScriptImportCache.write(content, for: source, size: size, modified: modified)
            let callback = lock.withLock { () -> (@Sendable () -> Void)? in
                pending.remove(source.path)
                return _finished
            }
            callback?()
        }
    }

    /// Waits until no conversion is queued or running; false at the deadline.
    public func waitUntilIdle(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if lock.withLock({ pending.isEmpty }) { return true }
            queue.sync {}
        }
        return lock.withLock { pending.isEmpty }
    }
}
