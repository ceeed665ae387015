import Durable
import Foundation
import Game

/// Where the open game is kept (state dir/game/): the session file, written after
/// every change, and the id that names the game in recordings' metadata, kept beside
/// it so a restored game keeps its name.
final class GameSessionStore {
    private let file: GameSessionFile
    /// The last trouble with the session file, for the console and status.
    private(set) var problem: String?

    init(stateDirectory: URL) {
        file = GameSessionFile(url: stateDirectory.appendingPathComponent("game/session.json"))
    }

    private var idURL: URL { file.url.deletingLastPathComponent().appendingPathComponent("session-id") }

    /// The saved session with what restoring it does (an attempt a kill left running is
    /// void) and its kept id; nil when none is saved or it cannot be read (`problem`).
    func restore(catalog: ActionCatalog, wallClock: @escaping @Sendable () -> Double)
        -> (session: GameSession, effects: [GameEffect], id: String?)? {
        do {
            guard let saved = try file.load() else { return nil }
            let restored = try GameSession.restore(saved, catalog: catalog, wallClock: wallClock)
            let id = (try? String(contentsOf: idURL, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            return (restored.session, restored.effects, id?.isEmpty == false ? id : nil)
        } catch {
            problem = "game session: \(error)"
            KioskLog.warning("game session not restored: \(error)")
            return nil
        }
    }

    func save(_ session: GameSession) {
        do {
            try file.save(session.saved)
            problem = nil
        } catch {
            problem = "game session not saved: \(error)"
            KioskLog.warning(problem ?? "")
        }
    }

    /// Keeps the id of a new game (private to the rig's owner, as the session is).
    func keep(id: String) {
        try? AtomicFile.createOwnerOnlyFolder(file.url.deletingLastPathComponent())
        do {
            try AtomicFile.write(Data(id.utf8), to: idURL, access: .ownerOnly)
        } catch {
            KioskLog.warning("game session id not saved: \(error)")
        }
    }
}
