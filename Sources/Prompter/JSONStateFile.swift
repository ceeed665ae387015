import Durable
import Foundation

/// One JSON file of state in the state directory, written atomically and 0600 (its
/// folder 0700 when made here) whatever the umask. A file that
/// cannot be read is moved aside as `<name>.bad` (kept for inspection, never deleted)
/// and reported, so the kiosk comes up with defaults instead of failing.
public struct JSONStateFile: Sendable {
    public enum LoadOutcome<Value> {
        case loaded(Value)
        /// No file yet (first start).
        case missing
        /// The file was there but unusable; `message` is for the inner display and journal.
        case unreadable(message: String)
    }

    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// Where an unreadable file is kept.
    public var badFileURL: URL {
        url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".bad")
    }

    /// Reads and decodes with `decode`; on failure moves the file to `.bad`.
    public func load<Value>(decode: (Data) throws -> Value) -> LoadOutcome<Value> {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            if !FileManager.default.fileExists(atPath: url.path) { return .missing }
            return .unreadable(message: setAside(reason: (error as NSError).localizedDescription))
        }
        do {
            return .loaded(try decode(data))
        } catch {
            return .unreadable(message: setAside(reason: Self.describe(error)))
        }
    }

    /// Encodes as pretty, key-sorted JSON (readable over ssh) and writes atomically,
    /// creating the state directory when needed.
    /// The bytes `save` writes, for a caller that writes them elsewhere (off its thread).
    public static func encode<Value: Encodable>(_ value: Value) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(value)
    }

    public func save<Value: Encodable>(_ value: Value) throws(AtomicFileError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw AtomicFileError(path: url.path, step: "encode", reason: Self.describe(error))
        }
        try AtomicFile.createOwnerOnlyFolder(url.deletingLastPathComponent())
        try AtomicFile.write(data, to: url, access: .ownerOnly)
    }

    /// Removes the file (a forgotten resume position); a missing file is fine.
    public func remove() {
        unlink(url.path)
    }

    private func setAside(reason: String) -> String {
        let kept: String
        if rename(url.path, badFileURL.path) == 0 {
            try? AtomicFile.syncDirectory(url.deletingLastPathComponent().path)
            kept = "it was kept as \(badFileURL.lastPathComponent)"
        } else {
            kept = "it could not be moved aside (\(String(cString: strerror(errno))))"
        }
        return "\(url.path) could not be read (\(reason)); defaults are used and \(kept)."
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            return "not valid JSON: \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, _):
            return "the key \"\(key.stringValue)\" is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "wrong type at \(path.isEmpty ? "top level" : path)"
        default:
            return (error as NSError).localizedDescription
        }
    }
}
