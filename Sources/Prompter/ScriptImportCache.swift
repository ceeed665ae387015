import Durable
import Foundation

/// The converted text of an imported document, kept in a hidden file next to it
/// (`.Talk.docx.rig-import`) so conversion runs once, not at every start. The first
/// line keys it to the source's size and modification time; a source that changes
/// makes the cache stale and it is converted again. A conversion that failed (the
/// converter crashed or hung) is cached too, so a bad file is not retried until it
/// changes; one refused as too large is keyed to the limit as well, so raising
/// `max_script_mb` tries it again. Written with `AtomicFile`: a power cut leaves the old
/// cache or the new one. Read on the importer's thread only: a cache can be megabytes.
enum ScriptImportCache {
    static let suffix = ".rig-import"

    enum Content: Equatable, Sendable {
        case text(String)
        case failed(String)
        /// The converted text is over `limit` bytes.
        case tooLarge(limit: Int)
    }

    static func url(for source: URL) -> URL {
        source.deletingLastPathComponent().appendingPathComponent("." + source.lastPathComponent + suffix)
    }

    static func key(size: Int, modified: Date) -> String {
        // Nanoseconds as an integer: a Double's text form would not round-trip exactly.
        let nanos = Int64((modified.timeIntervalSince1970 * 1_000_000_000).rounded())
        return "rig-import 1 size=\(size) mtime=\(nanos)"
    }

    /// The longest first line: the key, a space and the longest verdict.
    private static let headerBytes = 160

    /// Whether a cache for a source of this size and time is there, reading its first
    /// line only (the event loop asks, to tell "missing converter" from "cached").
    static func exists(for source: URL, size: Int, modified: Date) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: url(for: source).path) else { return false }
        defer { try? handle.close() }
        let head = String(decoding: (try? handle.read(upToCount: headerBytes)) ?? Data(), as: UTF8.self)
        return head.hasPrefix(key(size: size, modified: modified) + " ")
    }

    /// The cached content when it belongs to a source of this size and time, else nil.
    /// A text over `limit` bytes is not read: it is `.tooLarge`.
    static func read(for source: URL, size: Int, modified: Date, limit: Int) -> Content? {
        let path = url(for: source).path
        let key = key(size: size, modified: modified)
        guard let stamp = FileStamp(path: path), exists(for: source, size: size, modified: modified) else {
            return nil
        }
        if stamp.size > limit + headerBytes {
            guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
            defer { try? handle.close() }
            let head = String(decoding: (try? handle.read(upToCount: headerBytes)) ?? Data(), as: UTF8.self)
            return head.hasPrefix(key + " ok\n") ? .tooLarge(limit: limit) : nil
        }
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let newline = text.firstIndex(of: "\n") else { return nil }
        let header = text[..<newline]
        let body = String(text[text.index(after: newline)...])
        if header == key + " ok" { return body.utf8.count > limit ? .tooLarge(limit: limit) : .text(body) }
        if header == key + " failed" { return .failed(body) }
        if header == key + " too-large \(limit)" { return .tooLarge(limit: limit) }
        return nil
    }

    static func write(_ content: Content, for source: URL, size: Int, modified: Date) throws(AtomicFileError) {
        let header = key(size: size, modified: modified)
        let text: String
        switch content {
        case .text(let body): text = header + " ok\n" + body
        case .failed(let message): text = header + " failed\n" + message
        case .tooLarge(let limit): text = header + " too-large \(limit)\n" + ScriptImportFailure.tooLarge(limit: limit).description
        }
        try AtomicFile.write(Data(text.utf8), to: url(for: source))
    }
}
