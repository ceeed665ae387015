import Durable
import Foundation

/// The one JSON file a game session lives in (on the rig, /var/lib/rig/game/session.json),
/// written atomically on every `.save` effect.
public struct GameSessionFile: Sendable {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// Pretty, key-sorted JSON: readable over ssh, stable for diffs.
    public static func encode(_ saved: SavedSession) throws(SessionFileError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            return try encoder.encode(saved)
        } catch {
            throw .writeFailed(AtomicFileError(path: "", step: "encode", reason: "\(error)"))
        }
    }

    public func save(_ saved: SavedSession) throws(SessionFileError) {
        let data = try Self.encode(saved)
        do {
            try AtomicFile.createOwnerOnlyFolder(url.deletingLastPathComponent())
            try AtomicFile.write(data, to: url, access: .ownerOnly)
        } catch {
            throw .writeFailed(error)
        }
    }

    /// The saved session, or nil when there is none yet. Temp files of an interrupted
    /// write are never read (and are removed), so a kill during a save yields the
    /// previous file.
    public func load() throws(SessionFileError) -> SavedSession? {
        AtomicFile.removeLeftovers(of: url)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: url.path, reason: error.localizedDescription)
        }
        struct Header: Decodable { var format: Int }
        guard let header = try? JSONDecoder().decode(Header.self, from: data) else {
            throw .corrupt(path: url.path, reason: "not a game session (no format number)")
        }
        guard header.format == SavedSession.currentFormat else {
            throw .unsupportedFormat(path: url.path, format: header.format)
        }
        do {
            return try JSONDecoder().decode(SavedSession.self, from: data)
        } catch {
            throw .corrupt(path: url.path, reason: "\(error)")
        }
    }
}
