import Durable
import Foundation

/// The converted text of an imported document, kept in a hidden file next to it
/// (`.Talk.docx.rig-import`) so conversion runs once, not at every start. The first
/// line keys it to the source's size and modification time; a source that changes
/// makes the cache stale and it is converted again. A conversion that failed (the
/// converter crashed or hung) is cached too, so a bad file is not retried until it
/// changes. Written with `AtomicFile`: a power cut leaves the old cache or the new one.
enum ScriptImportCache {
    static let suffix = ".rig-import"

    enum Content: Equatable, Sendable {
        case text(String)
        case failed(String)
    }

    static func url(for source: URL) -> URL {
        source.deletingLastPathComponent().appendingPathComponent("." + source.lastPathComponent + suffix)
    }

    static func key(size: Int, modified: Date) -> String {
        // Nanoseconds as an integer: a Double's text form would not round-trip exactly.
        let nanos = Int64((modified.timeIntervalSince1970 * 1_000_000_000).rounded())
        return "rig-import 1 size=\(size) mtime=\(nanos)"
    }

    /// The cached content when it belongs to a source of this size and time, else nil.
    static func read(for source: URL, size: Int, modified: Date) -> Content? {
        guard let data = FileManager.default.contents(atPath: url(for: source).path) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let newline = text.firstIndex(of: "\n") else { return nil }
        let header = text[..<newline]
        let body = String(text[text.index(after: newline)...])
        if header == key(size: size, modified: modified) + " ok" { return .text(body) }
        if header == key(size: size, modified: modified) + " failed" { return .failed(body) }
        return nil
    }

    static func write(_ content: Content, for source: URL, size: Int, modified: Date) throws(AtomicFileError) {
        let header = key(size: size, modified: modified)
        let text: String
        switch content {
        case .text(let body): text = header + " ok\n" + body
        case .failed(let message): text = header + " failed\n" + message
        }
        try AtomicFile.write(Data(text.utf8), to: url(for: source))
    }
}
