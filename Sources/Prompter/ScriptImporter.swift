import CLinux
import Foundation

/// Reads imported documents on its own thread so the event loop never waits for a
/// converter or parses a converted text. The library asks for a document when a scan
/// finds no result for it; the importer reads the cache next to it, or runs the
/// converter in its box and writes the cache, then reads the text for prompting
/// (`ImportedScript`) and calls `finished` from its thread. The owner then refreshes the
/// library, whose scan takes the result.
///
/// One long-lived thread, not a dispatch queue: the converter's PR_SET_PDEATHSIG follows
/// the thread that forked it, and a pool thread may end while the importer lives on.
public final class ScriptImporter: @unchecked Sendable {
    let converter: ScriptConverter
    let lineBreaks: LineBreaks
    let directions: DirectionMarks
    private let work = ImportWork()

    init(converter: ScriptConverter, lineBreaks: LineBreaks, directions: DirectionMarks) {
        self.converter = converter
        self.lineBreaks = lineBreaks
        self.directions = directions
    }

    deinit { work.stop(waiting: 5) }

    /// Called on the importer's thread after each document's result is ready.
    public var finished: (@Sendable () -> Void)? {
        get { work.locked { $0.finished } }
        set { work.locked { $0.finished = newValue } }
    }

    /// How many times a converter has been started (tests check the cache is used).
    public var conversionsRun: Int { work.locked { $0.runs } }

    /// The converter running now, if any (tests watch it die at `stop`).
    public var runningConverter: pid_t? { work.locked { $0.running } }

    /// Whether this source is queued or being read.
    func isPending(_ source: URL) -> Bool {
        work.locked { $0.pending.contains(source.path) }
    }

    /// Queues a document unless it is already queued; `limit` is `max_script_mb` in bytes.
    func request(_ source: URL, kind: ScriptImportKind, size: Int, modified: Date, limit: Int) {
        let job = ImportWork.Job(source: source, kind: kind, size: size, modified: modified, limit: limit)
        guard work.add(job) else { return }
        work.startThread { [converter, lineBreaks, directions] job, work in
            Self.read(job, converter: converter, lineBreaks: lineBreaks, directions: directions, work: work)
        }
    }

    /// The finished result for this source, handed over once.
    func take(_ source: URL) -> ImportedScript? {
        work.locked { $0.results.removeValue(forKey: source.path) }
    }

    /// Waits until nothing is queued or being read; false at the deadline.
    public func waitUntilIdle(timeout: Double) -> Bool {
        work.waitUntilIdle(timeout: timeout)
    }

    /// Kills the running converter (its whole process group, SIGKILL) and ends the
    /// thread, waiting up to `timeout` seconds for both; later requests are ignored. The
    /// kiosk calls it when it stops.
    public func stop(timeout: Double = 5) {
        work.stop(waiting: timeout)
    }

    /// One document, on the importer's thread; nil when the importer stopped meanwhile.
    private static func read(_ job: ImportWork.Job, converter: ScriptConverter, lineBreaks: LineBreaks,
                             directions: DirectionMarks,
                             work: ImportWork) -> ImportedScript? {
        var content = ScriptImportCache.read(for: job.source, size: job.size, modified: job.modified, limit: job.limit)
        if content == nil {
            work.locked { $0.runs += 1 }
            let converted = converter.convert(job.source, kind: job.kind, maxBytes: job.limit,
                                              started: { pid in work.locked { $0.running = pid } },
                                              shouldStop: { work.locked { $0.stopping } })
            work.locked { $0.running = nil }
            let made: ScriptImportCache.Content
            switch converted {
            case .success(let text): made = .text(text)
            case .failure(.stopped): return nil
            case .failure(.tooLarge(let limit)): made = .tooLarge(limit: limit)
            case .failure(.missingTool(let kind)):
                // Not cached: installing the tool should be enough.
                return ImportedScript(size: job.size, modified: job.modified, limit: job.limit,
                                      outcome: .refused(kind.missingToolMessage))
            case .failure(let failure): made = .failed(failure.description)
            }
            // A source changed meanwhile has a new stamp: this cache is then ignored.
            try? ScriptImportCache.write(made, for: job.source, size: job.size, modified: job.modified)
            content = made
        }
        let outcome: ImportedScript.Outcome
        switch content {
        case .text(let converted)?:
            // pandoc escapes every bracket it finds in a document, since Markdown could
            // read one as a link; the writer of a word-processor document typed them as
            // brackets, so `[PAUSE]` there is a direction like in a Markdown script.
            let text = job.kind.readAs == .markdown
                ? converted.replacingOccurrences(of: "\\[", with: "[").replacingOccurrences(of: "\\]", with: "]")
                : converted
            let (reading, markers, markup) = ScriptLibrary.readingTextAndMarkers(
                text, format: job.kind.readAs, lineBreaks: lineBreaks, directions: directions)
            outcome = .text(source: text, reading: reading, markers: markers, markup: markup,
                            wordCount: ReadingTime.wordCount(reading, markup: markup))
        case .failed(let message)?: outcome = .refused(message)
        case .tooLarge(let limit)?: outcome = .refused(ScriptImportFailure.tooLarge(limit: limit).description)
        case nil: return nil
        }
        return ImportedScript(size: job.size, modified: job.modified, limit: job.limit, outcome: outcome)
    }
}
