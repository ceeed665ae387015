import Foundation

/// Who plays, and how: the host, the roster in turn order, and the settings.
/// The roster is fixed once play starts (start a new session to change it); settings
/// may change between attempts.
public struct GameSetup: Codable, Equatable, Sendable {
    public static let playerRange = 2...12

    public var host: String
    public var players: [String]
    public var settings: GameSettings

    public init(host: String, players: [String], settings: GameSettings = GameSettings()) {
        self.host = host
        self.players = players
        self.settings = settings
    }

    /// Names trimmed of surrounding white space, as they will be stored.
    public var normalized: GameSetup {
        var copy = self
        copy.host = host.trimmingCharacters(in: .whitespacesAndNewlines)
        copy.players = players.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        return copy
    }

    /// Every reason this setup cannot start a game, per field. Names are compared
    /// trimmed and case-insensitively ("Sam" and "sam " are the same player to a room).
    public func problems(catalog: ActionCatalog? = nil) -> [SetupProblem] {
        let clean = normalized
        var found: [SetupProblem] = []
        if clean.host.isEmpty { found.append(.init(.host, "enter the host's name")) }
        if !Self.playerRange.contains(clean.players.count) {
            found.append(.init(.players, "2 to 12 players, found \(clean.players.count)"))
        }
        var seen: [String: Int] = [:]
        for (index, name) in clean.players.enumerated() {
            if name.isEmpty {
                found.append(.init(.player(index), "enter a name"))
                continue
            }
            let key = name.lowercased()
            if let first = seen[key] {
                found.append(.init(.player(index), "\"\(name)\" is already player \(first + 1)"))
            } else {
                seen[key] = index
            }
        }
        return found + settings.problems(catalog: catalog)
    }
}
